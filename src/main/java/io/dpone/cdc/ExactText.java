package io.dpone.cdc;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * CDC text is exact or refused: a lone UTF-16 surrogate in a column name or in a text value (at any depth of a
 * map or list value; in a change's data or metadata) has no UTF-8 form, so writing it would replace it ({@code "a\ud800b"} becomes {@code "a?b"}) and
 * two distinct keys would collapse into one unique-key hash. Every sink and the batch policy refuse such a change as
 * {@code cdc_runtime.value_out_of_range} before anything is applied; the blocker names the column with the surrogate
 * written as {@code \\uXXXX}, never the value.
 */
public final class ExactText {
    private ExactText() {
    }

    /** The first change of {@code events} holding a lone surrogate in a name or a value, as its blocker; or null. */
    public static Blocker firstLoneSurrogate(StreamIdentity stream, List<CdcEvent> events) {
        for (int i = 0; i < events.size(); i++) {
            CdcEvent e = events.get(i);
            Blocker b = first(stream, e, "changes[" + i + "].data.", e.data());
            if (b == null) {
                b = first(stream, e, "changes[" + i + "].metadata.", e.metadata());
            }
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    private static Blocker first(StreamIdentity stream, CdcEvent e, String prefix, Map<String, Object> values) {
        for (Map.Entry<String, Object> v : values.entrySet()) {
            boolean inName = !exact(v.getKey());
            if (inName || !exactValue(v.getValue())) {
                String column = visible(v.getKey());
                return CdcBlockers.valueOutOfRange(stream, prefix + column, column, null, e, "the "
                    + (inName ? "name" : "value") + " holds an unpaired UTF-16 surrogate, which has no exact UTF-8 form");
            }
        }
        return null;
    }

    /** Throws {@code cdc_runtime.value_out_of_range} when {@code events} hold a lone surrogate (see above). */
    public static void require(StreamIdentity stream, List<CdcEvent> events) {
        Blocker b = firstLoneSurrogate(stream, events);
        if (b != null) {
            throw new DponeException(b);
        }
    }

    /** True when {@code s} has no unpaired surrogate (its UTF-8 encoding is exact). */
    public static boolean exact(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean exactValue(Object value) {
        if (value instanceof CharSequence s) {
            return exact(s.toString());
        }
        if (value instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> x : m.entrySet()) {
                if (!exactValue(x.getKey()) || !exactValue(x.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (value instanceof Collection<?> c) {
            return c.stream().allMatch(ExactText::exactValue);
        }
        return true;
    }

    /** {@code s} with every unpaired surrogate written as {@code \\uXXXX} (safe to put in a report). */
    static String visible(String s) {
        if (exact(s)) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
