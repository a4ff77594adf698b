package io.dpone.connect;

import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a URL that {@link RedactionPatterns} found really ends, so its placeholder covers all of it: the URL patterns
 * stop at the first space, but a password may hold one ({@code jdbc:h2:...;PASSWORD=my secret},
 * {@code https://user:my secret@host}), and what follows the space would be printed.
 *
 * <p>A URL that stopped at a space or tab is extended, on the same line only:
 * <ul>
 *   <li>opened by a quote: to the closing quote;</li>
 *   <li>a JDBC URL followed later on the line (before the next JDBC URL) by another {@code ;name=} parameter: to the
 *       end of the last such parameter;</li>
 *   <li>user-info with a {@code :} and an {@code @} further on the line with no {@code /} before it: through the
 *       host;</li>
 *   <li>ending in a credential parameter ({@code ;password=}, {@code ?token=}, ...): to the next {@code &} parameter
 *       of the URL, else to the end of the line.</li>
 * </ul>
 * Over-masking the rest of a line is preferred to printing half a password. Every search on a line starts where the
 * previous one stopped, so redacting a text stays linear in its length.
 */
final class UrlExtent {
    private static final Pattern JDBC_PARAMETER = Pattern.compile(";[ \\t]*[A-Za-z_][A-Za-z0-9_.-]*[ \\t]*=");
    private static final Pattern JDBC_START = Pattern.compile("jdbc:", Pattern.CASE_INSENSITIVE);
    private static final String QUOTES = "\"'`";

    private final String s;
    private final boolean jdbc;
    private int lineEnd = -1;
    private final int[] nextJdbc = {-1, -1};
    /** Per character searched for: the position last searched from, and what was found there (-1: none). */
    private final java.util.Map<Character, int[]> found = new java.util.HashMap<>();

    private UrlExtent(String s, boolean jdbc) {
        this.s = s;
        this.jdbc = jdbc;
    }

    /**
     * {@code s} with every match of {@code url} (extended as above) replaced by {@code replacement} of the matched
     * text; {@code keep} says which matches stay as they are (not extended, not replaced).
     */
    static String replace(String s, Pattern url, boolean jdbc, java.util.function.Predicate<String> keep,
                          UnaryOperator<String> replacement) {
        Matcher m = url.matcher(s);
        UrlExtent extent = new UrlExtent(s, jdbc);
        StringBuilder out = new StringBuilder(s.length());
        int copied = 0;
        int from = 0;
        while (from <= s.length() && m.find(from)) {
            if (keep.test(m.group())) {
                from = m.end();
                continue;
            }
            int end = extent.end(m.start(), m.end());
            out.append(s, copied, m.start()).append(replacement.apply(s.substring(m.start(), end)));
            copied = end;
            from = Math.max(end, m.start() + 1);
        }
        return copied == 0 ? s : out.append(s, copied, s.length()).toString();
    }

    private int end(int start, int matchEnd) {
        if (matchEnd >= s.length() || (s.charAt(matchEnd) != ' ' && s.charAt(matchEnd) != '\t')) {
            return matchEnd;
        }
        int line = lineEnd(matchEnd);
        char open = start > 0 ? s.charAt(start - 1) : 0;
        if (QUOTES.indexOf(open) >= 0) {
            int close = next(open, matchEnd);
            if (close > 0 && close < line) {
                return close;
            }
        }
        int end = matchEnd;
        if (jdbc) {
            int nextUrl = nextJdbcStart(end);
            int parameter = lastJdbcParameter(end, nextUrl >= 0 && nextUrl < line ? nextUrl : line);
            if (parameter >= 0) {
                end = run(parameter + 1, line);
            }
        }
        if (!jdbc) {
            end = throughUserInfo(start, end, line);
        }
        if (endsInCredential(start, end)) {
            int next = jdbc ? -1 : next('&', end);
            end = next > 0 && next < line ? run(next, line) : line;
        }
        return end;
    }

    /** Past a {@code user:pass word@host} whose user-info the URL pattern cut at the space. */
    private int throughUserInfo(int start, int end, int line) {
        int authority = s.indexOf("://", start) + 3;
        for (int i = authority; i < end; i++) {
            if ("/?#@".indexOf(s.charAt(i)) >= 0) {
                return end;
            }
        }
        if (s.substring(authority, end).indexOf(':') < 0) {
            return end;
        }
        int at = next('@', end);
        int slash = next('/', end);
        return at >= 0 && at < line && (slash < 0 || slash > at) ? run(at, line) : end;
    }

    /**
     * The first {@code c} at or after {@code from} (-1: none). Matches are met left to right, so a search resumes
     * where the last one for {@code c} found something: each character of the text is looked at once per {@code c}.
     */
    private int next(char c, int from) {
        int[] last = found.computeIfAbsent(c, k -> new int[] {-1, -1});
        if (last[0] >= 0 && last[0] <= from && (last[1] < 0 || last[1] >= from)) {
            return last[1];
        }
        last[0] = from;
        last[1] = s.indexOf(c, from);
        return last[1];
    }

    /** Whether the last parameter of {@code s[start, end)} ({@code ;k=v}, {@code ?k=v}, {@code &k=v}) is a credential. */
    private boolean endsInCredential(int start, int end) {
        int eq = -1;
        for (int i = end - 1; i >= start; i--) {
            char c = s.charAt(i);
            if (c == '=') {
                eq = i;
            } else if (c == ';' || c == '?' || c == '&') {
                return eq > 0 && Redactor.isCredentialKey(s.substring(i + 1, eq).strip());
            }
        }
        return false;
    }

    /** The end of the run of characters a URL may hold, from {@code from}, within the line. */
    private int run(int from, int line) {
        int i = from;
        while (i < line && !Character.isWhitespace(s.charAt(i)) && QUOTES.indexOf(s.charAt(i)) < 0
                && s.charAt(i) != '<' && s.charAt(i) != '>') {
            i++;
        }
        return i;
    }

    private int lineEnd(int from) {
        if (lineEnd < from) {
            int n = s.indexOf('\n', from);
            int r = s.indexOf('\r', from);
            lineEnd = n < 0 && r < 0 ? s.length() : n < 0 ? r : r < 0 ? n : Math.min(n, r);
        }
        return lineEnd;
    }

    /** Where the next JDBC URL starts at or after {@code from} (-1: none); resumed like {@link #next}. */
    private int nextJdbcStart(int from) {
        if (nextJdbc[0] >= 0 && nextJdbc[0] <= from && (nextJdbc[1] < 0 || nextJdbc[1] >= from)) {
            return nextJdbc[1];
        }
        Matcher m = JDBC_START.matcher(s);
        nextJdbc[0] = from;
        nextJdbc[1] = m.find(from) ? m.start() : -1;
        return nextJdbc[1];
    }

    /**
     * Where the last {@code ;name=} parameter in {@code s[from, to)} starts (-1: none): the text between a JDBC URL and
     * the next one (or the line's end), so every character is looked at once.
     */
    private int lastJdbcParameter(int from, int to) {
        Matcher p = JDBC_PARAMETER.matcher(s).region(from, to);
        int last = -1;
        while (p.find()) {
            last = p.start();
        }
        return last;
    }
}
