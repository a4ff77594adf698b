package io.dpone.manifest;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code source.value_policy}: a table-wide default ({@code refuse} unless declared) and per-column policies, keyed
 * by column name as the manifest spells it (matched case-insensitively, as SQL Server matches names).
 */
public record ValuePolicies(ValuePolicy defaultPolicy, Map<String, ValuePolicy> columns) {
    public static final ValuePolicies NONE = new ValuePolicies(ValuePolicy.REFUSE, Map.of());

    public ValuePolicies {
        defaultPolicy = defaultPolicy == null ? ValuePolicy.REFUSE : defaultPolicy;
        columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
    }

    /**
     * The policies of a schema-validated {@code value_policy} object ({@code {default, columns}}) of a manifest or a
     * serve configuration's CDC stream; a missing node declares none. 
     */
    public static ValuePolicies of(com.fasterxml.jackson.databind.JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return NONE;
        }
        Map<String, ValuePolicy> columns = new LinkedHashMap<>();
        node.path("columns").fields().forEachRemaining(e -> policy(e.getValue())
            .ifPresent(p -> columns.put(e.getKey(), p)));
        return new ValuePolicies(node.has("default") ? policy(node.get("default")).orElse(null) : null, columns);
    }

    /**
     * A policy value; YAML's bare {@code null} (a JSON null) is the {@code null} policy a person meant by it. An
     * unknown spelling is empty here: the schema check reports it at its path (a loader binds what it can while it
     * collects every problem).
     */
    private static java.util.Optional<ValuePolicy> policy(com.fasterxml.jackson.databind.JsonNode value) {
        return value.isNull() ? java.util.Optional.of(ValuePolicy.NULL) : ValuePolicy.parse(value.asText());
    }

    /** The policy in force for {@code column}: its own, else the default ({@code as_text} is never a default). */
    public ValuePolicy forColumn(String column) {
        for (Map.Entry<String, ValuePolicy> e : columns.entrySet()) {
            if (e.getKey().toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT))) {
                return e.getValue();
            }
        }
        return defaultPolicy;
    }

    /** True when the manifest declares anything other than refusing. */
    public boolean declared() {
        return defaultPolicy != ValuePolicy.REFUSE || columns.values().stream().anyMatch(p -> p != ValuePolicy.REFUSE);
    }
}
