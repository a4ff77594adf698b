package io.dpone.source;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code --include} / {@code --exclude}: glob patterns on {@code schema.table}, matched case-insensitively (as SQL
 * Server matches names). {@code *} matches any run of characters, {@code ?} one; a pattern without a dot applies to
 * the table name in every schema ({@code orders_*} is {@code *.orders_*}). A table is selected when it matches some
 * include (every table when none is given) and no exclude. Patterns hold letters, digits, {@code _}, {@code .},
 * {@code *}, {@code ?} only. Shared by {@code dpone discover} ({@code --include}/{@code --exclude}) and a multi-table
 * CDC stream ({@code --include-table}/{@code --exclude-table}, a serve stream's {@code include}/{@code exclude}).
 */
public final class TablePatterns {
    private static final Pattern VALID = Pattern.compile("^[A-Za-z0-9_*?]+(\\.[A-Za-z0-9_*?]+)?$");
    private final List<Pattern> include;
    private final List<Pattern> exclude;

    private TablePatterns(List<Pattern> include, List<Pattern> exclude) {
        this.include = include;
        this.exclude = exclude;
    }

    /** The patterns, or an {@link IllegalArgumentException} naming the first malformed one. */
    public static TablePatterns of(List<String> include, List<String> exclude) {
        return of(include, exclude, "--include", "--exclude");
    }

    /** As {@link #of(List, List)}, a malformed pattern named by the option it came from. */
    public static TablePatterns of(List<String> include, List<String> exclude, String includeOption,
                                   String excludeOption) {
        return new TablePatterns(include.stream().map(p -> compile(p, includeOption)).toList(),
            exclude.stream().map(p -> compile(p, excludeOption)).toList());
    }

    /** True when {@code schema.table} matches some include (every table when none is given). */
    public boolean included(String schema, String table) {
        String name = (schema + "." + table).toLowerCase(Locale.ROOT);
        return include.isEmpty() || include.stream().anyMatch(p -> p.matcher(name).matches());
    }

    /** The index of the first exclude pattern {@code schema.table} matches, or -1. */
    public int excludedBy(String schema, String table) {
        String name = (schema + "." + table).toLowerCase(Locale.ROOT);
        for (int i = 0; i < exclude.size(); i++) {
            if (exclude.get(i).matcher(name).matches()) {
                return i;
            }
        }
        return -1;
    }

    private static Pattern compile(String glob, String option) {
        if (glob == null || !VALID.matcher(glob).matches()) {
            throw new IllegalArgumentException(option + " pattern must be schema.table or table, made of letters, "
                + "digits, '_', '*' and '?'");
        }
        String full = glob.contains(".") ? glob : "*." + glob;
        StringBuilder re = new StringBuilder();
        for (char c : full.toCharArray()) {
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '.' -> re.append("\\.");
                default -> re.append(c);
            }
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }

    /** True when {@code schema.table} is selected. */
    public boolean selects(String schema, String table) {
        String name = (schema + "." + table).toLowerCase(Locale.ROOT);
        boolean in = include.isEmpty() || include.stream().anyMatch(p -> p.matcher(name).matches());
        return in && exclude.stream().noneMatch(p -> p.matcher(name).matches());
    }
}
