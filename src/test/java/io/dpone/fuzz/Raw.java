package io.dpone.fuzz;

/**
 * Text a writer emits as it is, where a value goes: a YAML alias or tag, a plain YAML scalar ({@code yes}, {@code ~},
 * {@code .inf}), a JSON literal no tree holds ({@code NaN}, {@code 01}, {@code 1e99999}) or a nesting too deep to
 * build as a tree. Held in a {@link com.fasterxml.jackson.databind.node.POJONode}.
 */
record Raw(String text) {
}
