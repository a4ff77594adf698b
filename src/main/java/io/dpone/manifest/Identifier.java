package io.dpone.manifest;

import java.util.regex.Pattern;

/**
 * The one identifier rule for names that reach SQL (schemas, tables, columns, keys, datasets): a letter or
 * underscore, then letters, digits or underscores. Dialects quote what passes it; nothing else is spliced.
 */
public final class Identifier {
    public static final Pattern PATTERN = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*$");

    private Identifier() {
    }

    /** True when {@code name} follows the rule. */
    public static boolean valid(String name) {
        return name != null && PATTERN.matcher(name).matches();
    }
}
