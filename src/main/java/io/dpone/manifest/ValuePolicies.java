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
