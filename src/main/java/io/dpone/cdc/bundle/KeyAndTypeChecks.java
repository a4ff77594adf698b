package io.dpone.cdc.bundle;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.bundle.CdcPromotionBundle.ColumnVerdict;
import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.bundle.SourceCatalogue.Meta;
import io.dpone.cdc.mssql.SqlServerChangeTrackingReader;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.ColumnReads;
import io.dpone.source.SourceColumn;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A table's {@code unique_keys} (the keys are its primary key or, CDC, a unique index, and are captured) and
 * {@code column_types} (every captured column maps to ClickHouse under the value policy in force: issue 29's verdicts,
 * {@link ColumnReads}; the declared policies name captured columns) checks.
 */
final class KeyAndTypeChecks {
    private final CdcRunOptions options;
    private final Findings findings;

    KeyAndTypeChecks(CdcRunOptions options, Findings findings) {
        this.options = options;
        this.findings = findings;
    }

    /** {@code captured}: null when capture is off (the keys are then checked against the table only). */
    void uniqueKeys(DatabaseMetaData md, Lane l, List<String> primaryKey, List<Meta> captured) throws SQLException {
        String schema = l.schema();
        String table = l.table();
        List<Blocker> found = new ArrayList<>();
        Set<String> keys = SourceCatalogue.lower(l.uniqueKeys());
        boolean ct = SqlServerChangeTrackingReader.BACKEND.equals(options.backend());
        String match = null;
        if (keys.equals(SourceCatalogue.lower(primaryKey))) {
            match = "the primary key " + primaryKey;
        } else if (!ct) {
            for (var e : SourceCatalogue.uniqueIndexes(md, schema, table).entrySet()) {
                if (keys.equals(SourceCatalogue.lower(e.getValue()))) {
                    match = "unique index " + e.getKey() + " " + e.getValue();
                    break;
                }
            }
        }
        if (match == null) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("unique_keys", l.uniqueKeys());
            details.put("primary_key", primaryKey);
            found.add(Blocker.of(BlockerCode.CDC_BUNDLE_UNIQUE_KEY_MISMATCH, l.keyOption(), l.keyOption() + " "
                + l.uniqueKeys() + " is not the primary key " + primaryKey + " of " + schema + "." + table
                + (ct ? " (Change Tracking keys rows by the primary key)" : " nor a unique index of it")
                + ": a stream keyed by columns that are not unique can merge two rows", details));
        }
        Set<String> capturedNames = captured == null ? Set.of()
            : SourceCatalogue.lower(captured.stream().map(Meta::name).toList());
        for (String k : l.uniqueKeys()) {
            if (captured != null && !capturedNames.contains(k.toLowerCase(Locale.ROOT))) {
                found.add(Blocker.of(BlockerCode.CDC_BUNDLE_UNIQUE_KEY_NOT_CAPTURED, l.keyOption(),
                    "unique-key column " + k + " is not captured by "
                        + (ct ? schema + "." + table : "capture instance " + l.captureInstance())));
            }
        }
        if (found.isEmpty()) {
            findings.pass("unique_keys", l.keyOption() + " " + l.uniqueKeys() + " is " + match
                + (captured == null ? " (capture not enabled: not checked against captured columns)" : ", captured"));
        } else {
            findings.fail("unique_keys", "the unique keys do not key the table's captured rows", found);
        }
    }

    void columnTypes(Lane l, List<Meta> captured) {
        String where = l.name();
        List<Blocker> found = new ArrayList<>();
        List<ColumnVerdict> verdicts = findings.at().verdicts;
        for (Meta m : captured) {
            boolean key = l.uniqueKeys().stream().anyMatch(k -> k.equalsIgnoreCase(m.name()));
            ColumnReads.Described d = m.described();
            ValuePolicy policy = ColumnReads.policyInForce(options.valuePolicies(), d, key);
            ColumnReads.Result read = ColumnReads.read(d, policy, where + "." + m.name(),
                "value_policy.columns." + m.name(), null);
            String type = m.typeName() == null ? "" : m.typeName().toLowerCase(Locale.ROOT);
            if (read.refusal() != null) {
                found.add(read.refusal());
                verdicts.add(new ColumnVerdict(m.name(), type, m.nullable(), key, "refused", List.of(),
                    policy.text(), read.refusal().code()));
                continue;
            }
            List<Map<String, String>> ch = new ArrayList<>();
            boolean converted = false;
            for (SourceColumn sc : read.columns()) {
                ch.add(Map.of("name", sc.name(), "type", sc.clickHouseType()));
                converted |= sc.readSql() != null;
            }
            if (key && converted) {
                found.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, l.keyOption(), "unique-key column "
                    + m.name() + " is read through a conversion (hierarchyid, geography, geometry): it cannot key "
                    + "a stream; key it by another unique column"));
            }
            verdicts.add(new ColumnVerdict(m.name(), type, m.nullable(), key, converted ? "converted" : "mapped", ch,
                policy.text(), null));
        }
        for (var e : options.valuePolicies().columns().entrySet()) {
            String path = "value_policy.columns." + e.getKey();
            boolean key = l.uniqueKeys().stream().anyMatch(k -> k.equalsIgnoreCase(e.getKey()));
            if (captured.stream().noneMatch(m -> m.name().equalsIgnoreCase(e.getKey()))) {
                found.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, path, "column '" + e.getKey()
                    + "' is not a captured column of " + where));
            } else if (key && (e.getValue() == ValuePolicy.CLAMP || e.getValue() == ValuePolicy.NULL)) {
                found.add(CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, path, e.getValue().text()
                    + " cannot apply to unique-key column " + e.getKey() + " of " + where
                    + ": a changed key could merge two rows"));
            }
        }
        if (found.isEmpty()) {
            findings.pass("column_types", captured.size() + " captured columns map to ClickHouse under their value "
                + "policies");
        } else {
            findings.fail("column_types", found.size() + " column or policy problem(s)", found);
        }
    }
}
