package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.quality.GateResult;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.value_policy} (issue 29): the "open end" and "unknown" sentinels of validity ranges (9999-12-31
 * 23:59:59.9999999, 0001-01-01) are refused by default naming the column and the way out; under {@code clamp} the run
 * lands green with the typed hash over the clamped values and the {@code value_policy} gate counting them per column;
 * {@code null} nulls them in a nullable column; a policy that cannot apply is refused with its manifest path. Each
 * route family (RowBinary, TabSeparated, Parquet) carries the clamped values and a {@code time(7)} column exactly.
 */
@io.dpone.testing.EngineTest
class ValuePolicyRouteTest {
    @TempDir
    Path dir;
    String h2;
    String db;
    Connection source;
    ClickHouseEndpoint ch;

    @BeforeEach
    void setUp() throws Exception {
        h2 = TestEngines.newH2Url();
        db = TestEngines.newDatabase("vpol");
        source = DriverManager.getConnection(h2, "sa", "");
        try (Statement st = source.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.validity (id INT NOT NULL PRIMARY KEY, valid_from DATE NOT NULL, "
                + "valid_to DATETIME2(7), note NVARCHAR(10), at_time TIME(7))");
            st.execute("INSERT INTO dbo.validity VALUES "
                + "(1, DATE '0001-01-01', TIMESTAMP '9999-12-31 23:59:59.9999999', 'open', TIME '23:59:59.9999999'), "
                + "(2, DATE '2020-02-29', NULL, 'plain', TIME '00:00:00'), "
                + "(3, DATE '1899-12-31', TIMESTAMP '2024-05-01 10:00:00.1234567', NULL, TIME '12:34:56.0000001'), "
                + "(4, DATE '9999-12-31', TIMESTAMP '0001-01-01 00:00:00', 'x', NULL)");
        }
        ch = TestEngines.clickhouse();
    }

    @AfterEach
    void tearDown() throws Exception {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
        source.close();
    }

    private RunReport run(String runId, String route, String policy) {
        Path manifest = Manifests.write(dir.resolve(runId + ".yaml"), """
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: validity}
            %s
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: validity}
              strategy: {mode: full_refresh}
              options: {route: %s}
            """.formatted(TestEngines.SOURCE, policy.isEmpty() ? "" : "  value_policy: " + policy,
            TestEngines.CLICKHOUSE, db, route));
        return Dpone.run(manifest, runId, TestEngines.context(h2), ProgressListener.NONE, dir.resolve("state"));
    }

    private static GateResult gate(RunReport r, String name) {
        return r.gates().stream().filter(g -> g.gate().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void sentinelsAreRefusedByDefaultNamingTheColumnAndTheWayOut() {
        RunReport r = run("vp-refuse", "typed_binary_streaming", "");
        assertFalse(r.passed());
        Blocker b = r.blockers().get(0);
        assertEquals("source.value_out_of_range", b.code());
        assertTrue(b.subject().equals("source.columns.valid_from") || b.subject().equals("source.columns.valid_to"), b::subject);
        assertTrue(b.message().contains("declare source.value_policy.columns." + b.subject().substring(15) + ": clamp"),
            b::message);
        assertTrue(r.gates().stream().noneMatch(g -> g.gate().equals("value_policy")));
        assertEquals(0, ch.query("SELECT count() FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = 'validity'").stream().mapToInt(x -> Integer.parseInt(x.get(0))).sum());
    }

    @Test
    void clampLandsGreenOnEveryFormatWithTheClampedCountsAndExactTimes() {
        for (String route : List.of("typed_binary_streaming", "typed_raw_streaming", "direct_push_columnar.chunked")) {
            RunReport r = run("vp-clamp-" + route.replace('.', '-'), route, "{default: clamp}");
            assertTrue(r.passed(), () -> route + " " + r.blockers());
            assertEquals("passed", gate(r, "typed_hash").status(), route);
            GateResult policy = gate(r, "value_policy");
            assertEquals("passed", policy.status());
            assertEquals(Map.of("valid_from", Map.of("policy", "clamp", "clamped", 3L),
                "valid_to", Map.of("policy", "clamp", "clamped", 2L)), policy.details().get("columns"), route);
            assertEquals(List.of(
                List.of("1", "1900-01-01", "2299-12-31 23:59:59.9999999", "23:59:59.9999999"),
                List.of("2", "2020-02-29", "\\N", "00:00:00.0000000"),
                List.of("3", "1900-01-01", "2024-05-01 10:00:00.1234567", "12:34:56.0000001"),
                List.of("4", "2299-12-31", "1900-01-01 00:00:00.0000000", "\\N")),
                ch.query("SELECT id, toString(valid_from), ifNull(toString(valid_to), '\\\\N'), "
                    + "ifNull(toString(at_time), '\\\\N') FROM " + ClickHouseSql.table(db, "validity") + " ORDER BY id"),
                route);
            assertEquals(List.of(List.of("Date32", "Nullable(DateTime64(7, 'UTC'))", "Nullable(Time64(7))")),
                ch.query("SELECT toTypeName(valid_from), toTypeName(valid_to), toTypeName(at_time) FROM "
                    + ClickHouseSql.table(db, "validity") + " LIMIT 1"));
        }
    }

    @Test
    // YAML's bare null means the null policy, as the quoted 'null' does (aPolicyThatCannotApply... spells it quoted)
    void nullPolicyNullsANullableColumnAndAPolicyThatChangedNothingSaysZero() {
        RunReport r = run("vp-null", "typed_binary_streaming",
            "{default: clamp, columns: {valid_to: null, note: clamp}}");
        assertTrue(r.passed(), () -> r.blockers().toString());
        assertEquals(Map.of("valid_from", Map.of("policy", "clamp", "clamped", 3L),
            "valid_to", Map.of("policy", "null", "nulled", 2L), "note", Map.of("policy", "clamp", "clamped", 0L)),
            gate(r, "value_policy").details().get("columns"));
        assertEquals(List.of(List.of("3")), ch.query("SELECT countIf(valid_to IS NULL) FROM "
            + ClickHouseSql.table(db, "validity")));
    }

    @Test
    void aPolicyThatCannotApplyIsRefusedWithItsManifestPathBeforeAnythingIsWritten() throws Exception {
        RunReport notNull = run("vp-bad-null", "typed_binary_streaming", "{columns: {valid_from: 'null'}}");
        assertFalse(notNull.passed());
        assertEquals("manifest.invalid_value", notNull.blockers().get(0).code());
        assertEquals("source.value_policy.columns.valid_from", notNull.blockers().get(0).subject());
        assertTrue(notNull.blockers().get(0).message().contains("NOT NULL"), notNull.blockers().get(0)::message);

        RunReport asText = run("vp-bad-text", "typed_binary_streaming", "{columns: {note: as_text}}");
        assertEquals("source.value_policy.columns.note", asText.blockers().get(0).subject());
        assertTrue(asText.blockers().get(0).message().contains("sql_variant"));

        RunReport missing = run("vp-missing", "typed_binary_streaming", "{columns: {nope: clamp}}");
        assertEquals("manifest.invalid_value", missing.blockers().get(0).code());
        assertEquals("source.value_policy.columns.nope", missing.blockers().get(0).subject());

        try (Statement st = source.createStatement()) {
            st.execute("DROP TABLE dbo.validity");
            st.execute("CREATE TABLE dbo.validity (valid_from DATE NOT NULL PRIMARY KEY, v INT)");
            st.execute("INSERT INTO dbo.validity VALUES (DATE '0001-01-01', 1), (DATE '0001-01-02', 2)");
        }
        RunReport key = run("vp-key", "typed_binary_streaming", "{columns: {valid_from: clamp}}");
        assertEquals("manifest.invalid_value", key.blockers().get(0).code());
        assertTrue(key.blockers().get(0).message().contains("primary-key column"), key.blockers().get(0)::message);
        // the table-wide default never clamps a key: two keys would become one
        RunReport byDefault = run("vp-key-default", "typed_binary_streaming", "{default: clamp}");
        assertEquals("source.value_out_of_range", byDefault.blockers().get(0).code());
        assertEquals("source.columns.valid_from", byDefault.blockers().get(0).subject());
    }

    @Test
    void theSchemaRefusesAnUnknownPolicyWithItsPath() {
        try {
            RunReport r = run("vp-schema", "typed_binary_streaming", "{default: as_text}");
            assertFalse(r.passed());
            assertEquals("source.value_policy.default", r.blockers().get(0).subject());
        } catch (DponeException e) {
            assertEquals("source.value_policy.default", e.blockers().get(0).subject());
        }
    }
}
