package io.dpone.fuzz;

/** The kinds of change the fuzzer makes to a valid input; a case is counted under its first one. */
enum Mutation {
    /** A value replaced by one of another JSON type (string, number, boolean, null, array, object). */
    WRONG_TYPE,
    /** A value replaced by a boundary number: 0, -1, int and long limits and one past them, huge, tiny, -0.0. */
    BOUNDARY_NUMBER,
    /** A string replaced by an odd one: empty, blanks, control and zero-width characters, quotes, RTL, emoji. */
    ODD_STRING,
    /** A string replaced by a long identifier (128 to 100,000 characters, ASCII or not). */
    LONG_IDENTIFIER,
    /** A string replaced by a value of the input's own domain (another backend, token shape, alias, operation). */
    DOMAIN_VALUE,
    /** A key removed. */
    REMOVE_KEY,
    /** An unknown key added. */
    UNKNOWN_KEY,
    /** A value replaced by arrays or objects nested 8 to 100,000 deep. */
    DEEP_NESTING,
    /** A container emptied or a value replaced by a 10,000-element array. */
    EMPTY_OR_HUGE,
    /** An object's first key written twice. */
    DUPLICATE_KEY,
    /** YAML: a node anchored and aliased elsewhere, or a merge key. */
    ANCHOR_ALIAS,
    /** YAML: nested aliases that expand exponentially ("billion laughs"). */
    ALIAS_BOMB,
    /** YAML: a plain scalar YAML reads as another type ({@code yes}, {@code ~}, {@code .inf}, {@code 0x1F}) or a tag. */
    YAML_SCALAR,
    /** The bytes cut at a random offset. */
    TRUNCATE,
    /** Bytes that are not UTF-8 (a lone continuation byte, an overlong form, a surrogate, 0xFF) at a random offset. */
    INVALID_UTF8,
    /** A literal secret planted where a credential goes (URL parameter, user-info, a credential key). */
    PLANT_SECRET
}
