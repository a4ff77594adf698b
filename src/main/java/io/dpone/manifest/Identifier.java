package io.dpone.manifest;

import java.util.regex.Pattern;

/**
 * The one identifier rule for names that reach SQL (schemas, tables, columns, keys, datasets): a letter or
 * underscore, then letters, digits or underscores, at most 128 characters in all (SQL Server's {@code sysname}).
 * Dialects quote what passes it; nothing else is spliced.
 */
public final class Identifier {
    public static final Pattern PATTERN = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,127}$");

    private Identifier() {
    }

    /** True when {@code name} follows the rule. */
    public static boolean valid(String name) {
        return name != null && PATTERN.matcher(name).matches();
    }
}
