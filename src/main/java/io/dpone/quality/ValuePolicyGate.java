package io.dpone.quality;

import io.dpone.manifest.ValuePolicy;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The evidence of the declared value policies ({@code source.value_policy}): for every column a policy other than
 * {@code refuse} is in force on, the policy and how many values it changed ({@code clamped} or {@code nulled}; 0 when
 * it changed none), or {@code as_text} for a sql_variant read as text. The typed hash and the fidelity gates are
 * defined on the values after the policy, so they prove the load of exactly these values; this gate says how the
 * values differ from the source's. It passes: a declared policy doing what it declares is not a failure; a value no
 * policy can take stops the read before any gate runs.
 */
public final class ValuePolicyGate {
    public static final String NAME = "value_policy";

    private ValuePolicyGate() {
    }

    public static GateResult evaluate(SourceTable table) {
        Map<String, Object> columns = new LinkedHashMap<>();
        List<SourceColumn> cs = table.columns();
        for (int i = 0; i < cs.size(); i++) {
            SourceColumn c = cs.get(i);
            if (c.policy() == ValuePolicy.REFUSE) {
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("policy", c.policy().text());
            switch (c.policy()) {
                case CLAMP -> entry.put("clamped", table.tally().changed(i));
                case NULL -> entry.put("nulled", table.tally().changed(i));
                default -> entry.put("source_type", c.sourceType());
            }
            columns.put(c.name(), entry);
        }
        return GateResult.passed(NAME, Map.of("columns", columns));
    }
}
