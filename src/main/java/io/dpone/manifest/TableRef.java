package io.dpone.manifest;

/** A validated {@code schema.name} pair; both parts match the identifier rule. */
public record TableRef(String schema, String name) {
    @Override
    public String toString() {
        return schema + "." + name;
    }
}
