package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.Blocker;
import io.dpone.quality.GateResult;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 29 item 4: a schema modelled on the public sample databases' type mix (AdventureWorks' hierarchyid node,
 * alias types and computed columns, WideWorldImporters' geography and time, a rowversion, xml, a cp1252 and a cp936
 * {@code varchar}, sentinels at both ends of a validity range, {@code (max)} values over 1 MiB, a sparse column, a
 * padded {@code char}), created through the real mssql-jdbc. Every table either lands exactly with every gate green or
 * is refused with its typed reason. Expected values are read back from the source through the driver (the server's
 * own answer: its xml serialisation, its rowversion bytes), never from dpone's mapping.
 */
abstract class RealSchemaContract extends MssqlSourceContract {
    static final String BIG = "Ünïcödé ".repeat(150_000); // 1.2M chars, PLP over many packets
    /** WKB of POINT(-122.35 47.65), little-endian, as a client would send it. */
    static final byte[] POINT = wkbPoint(-122.35, 47.65);

    @BeforeAll
    void createRealSchema() throws Exception {
        try (Connection c = connect(server.url()); Statement st = c.createStatement()) {
            st.execute("IF OBJECT_ID('dbo.employee', 'U') IS NOT NULL DROP TABLE dbo.employee");
            st.execute("IF OBJECT_ID('dbo.variants', 'U') IS NOT NULL DROP TABLE dbo.variants");
            for (String type : List.of("dbo.Name", "dbo.Flag")) {
                try {
                    st.execute("DROP TYPE " + type); // a rerun on a server: the tables using it are gone
                } catch (java.sql.SQLException absent) {
                    // first run: nothing to drop
                }
            }
            st.execute("CREATE TYPE dbo.Name FROM nvarchar(50) NULL");
            st.execute("CREATE TYPE dbo.Flag FROM bit NOT NULL");
            st.execute("CREATE TABLE dbo.employee (id int NOT NULL PRIMARY KEY, node hierarchyid, login dbo.Name, "
                + "active dbo.Flag, shift_start time(7), shift_end time(0), rv rowversion, resume xml, "
                + "location geography, site geometry, note_1252 varchar(60) COLLATE Latin1_General_CI_AS, "
                + "note_936 varchar(60) COLLATE Chinese_PRC_CI_AS, bio nvarchar(max), photo varbinary(max), "
                + "code char(6), valid_from date NOT NULL, valid_to datetime2(7), doubled AS (id * 2), "
                + "bonus int SPARSE NULL, salary money, rate float)");
            st.execute("INSERT INTO dbo.employee (id, node, login, active, shift_start, shift_end, resume, location, "
                + "site, note_1252, note_936, bio, photo, code, valid_from, valid_to, bonus, salary, rate) VALUES "
                + "(1, hierarchyid::GetRoot(), N'ken0', 1, '23:59:59.9999999', '00:00:00', "
                + "N'<resume><name first=\"Ken\">Sánchez</name></resume>', geography::STGeomFromWKB(0x"
                + HexFormat.of().formatHex(POINT) + ", 4326), geometry::STGeomFromText('POINT(1 2)', 0), "
                + "'café €uro ÿ', N'中文资料', N'x', 0x00FF, 'ab', '0001-01-01', '9999-12-31 23:59:59.9999999', 7, "
                + "-922337203685477.5808, 0.1)");
            st.execute("INSERT INTO dbo.employee (id, node, login, active, shift_start, shift_end, resume, location, "
                + "site, note_1252, note_936, bio, photo, code, valid_from, valid_to, bonus, salary, rate) VALUES "
                + "(2, hierarchyid::Parse('/1/2/'), NULL, 0, '00:00:00.0000001', '12:34:56', NULL, NULL, NULL, "
                + "NULL, NULL, NULL, NULL, NULL, '2024-02-29', NULL, NULL, 1234.5678, 1e-300)");
            try (var ps = c.prepareStatement("INSERT INTO dbo.employee (id, node, active, bio, photo, valid_from, "
                + "valid_to) VALUES (3, hierarchyid::Parse('/1/2/3/'), 1, ?, ?, '2020-01-01', "
                + "'2021-06-30 08:00:00.1234567')")) {
                ps.setString(1, BIG);
                byte[] photo = new byte[1_300_000];
                for (int i = 0; i < photo.length; i++) {
                    photo[i] = (byte) (i * 7);
                }
                ps.setBytes(2, photo);
                ps.executeUpdate();
            }
            st.execute("UPDATE dbo.employee SET bonus = 8 WHERE id = 1"); // a new rowversion
            st.execute("CREATE TABLE dbo.variants (id int NOT NULL PRIMARY KEY, v sql_variant)");
            st.execute("INSERT INTO dbo.variants VALUES (1, 42), (2, N'text'), (3, NULL)");
        }
    }

    Path employee(String db, String route, String policy) {
        return Manifests.write(dir.resolve(db + ".batch.yaml"), """
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: employee}
            %s
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: employee}
              strategy: {mode: full_refresh}
              options: {route: %s}
            quality: {distinct_columns: [node, rv, location]}
            """.formatted(TestEngines.SOURCE, policy == null ? "" : "  value_policy: " + policy, TestEngines.CLICKHOUSE,
            db, route));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"typed_raw_streaming", "typed_binary_streaming", "direct_push_columnar.chunked"})
    void theRealSchemaLandsExactlyUnderClampWithEveryGateGreen(String route) throws Exception {
        String db = TestEngines.newDatabase("real_schema");
        RunReport r = Dpone.run(employee(db, route, "{default: clamp}"), "real-" + route.replace('.', '-'),
            context(server.url()), ProgressListener.NONE, dir.resolve("state"));
        assertTrue(r.passed(), () -> route + ": " + r.blockers());
        assertEquals(3, r.loadedRows());
        for (GateResult g : r.gates()) {
            assertEquals("passed", g.status(), () -> route + " gate " + g.gate() + ": " + g);
        }
        assertEquals(Map.of("valid_from", Map.of("policy", "clamp", "clamped", 1L),
            "valid_to", Map.of("policy", "clamp", "clamped", 1L)),
            r.gates().stream().filter(g -> g.gate().equals("value_policy")).findFirst().orElseThrow().details()
                .get("columns"));
        try (ClickHouseEndpoint ch = TestEngines.clickhouse(); Connection c = connect(server.url())) {
            String t = ClickHouseSql.table(db, "employee");
            assertEquals(List.of(List.of("Nullable(String)", "Nullable(String)", "Bool", "Nullable(Time64(7))",
                "Nullable(Time64(0))", "UInt64", "Nullable(String)", "Nullable(String)", "Nullable(Int32)",
                "Nullable(Int32)")), ch.query("SELECT toTypeName(node), toTypeName(login), toTypeName(active), "
                    + "toTypeName(shift_start), toTypeName(shift_end), toTypeName(rv), toTypeName(resume), "
                    + "toTypeName(location), toTypeName(location__srid), toTypeName(doubled) FROM " + t + " LIMIT 1"));
            List<List<String>> target = ch.query("SELECT id, node, ifNull(login, 'NULL'), toString(active), "
                + "ifNull(toString(shift_start), 'NULL'), ifNull(toString(shift_end), 'NULL'), toString(rv), "
                + "ifNull(resume, 'NULL'), ifNull(hex(location), 'NULL'), ifNull(toString(location__srid), 'NULL'), "
                + "ifNull(hex(site), 'NULL'), ifNull(toString(site__srid), 'NULL'), ifNull(hex(note_1252), 'NULL'), "
                + "ifNull(hex(note_936), 'NULL'), ifNull(hex(code), 'NULL'), toString(valid_from), "
                + "ifNull(toString(valid_to), 'NULL'), toString(doubled), ifNull(toString(bonus), 'NULL'), "
                + "toString(length(ifNull(bio, ''))), toString(ifNull(bio = repeat('Ünïcödé ', 150000), false)), "
                + "toString(length(ifNull(photo, ''))) "
                + "FROM " + t + " ORDER BY id");
            assertEquals(expected(c), target);
        }
    }

    /** The rows as the server returns them through the driver (with SQL Server's own conversions), and the clamps. */
    private List<List<String>> expected(Connection c) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id, CAST(node AS "
            + "nvarchar(4000)), login, active, shift_start, shift_end, rv, resume, location.AsBinaryZM(), "
            + "location.STSrid, site.AsBinaryZM(), site.STSrid, note_1252, note_936, code, valid_from, valid_to, "
            + "doubled, bonus, bio, photo FROM dbo.employee ORDER BY id")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                row.add(rs.getString(1));
                row.add(rs.getString(2));
                row.add(orNull(rs.getString(3)));
                row.add(rs.getBoolean(4) ? "true" : "false");
                row.add(time(rs.getObject(5, java.time.LocalTime.class), 7));
                row.add(time(rs.getObject(6, java.time.LocalTime.class), 0));
                row.add(Long.toUnsignedString(ByteBuffer.wrap(rs.getBytes(7)).getLong()));
                row.add(orNull(rs.getString(8)));
                row.add(hex(rs.getBytes(9)));
                row.add(orNull(rs.getString(10)));
                row.add(hex(rs.getBytes(11)));
                row.add(orNull(rs.getString(12)));
                row.add(rs.getString(13) == null ? "NULL" : hex(rs.getString(13)));
                row.add(rs.getString(14) == null ? "NULL" : hex(rs.getString(14)));
                row.add(rs.getString(15) == null ? "NULL" : hex(rs.getString(15)));
                java.time.LocalDate from = rs.getObject(16, java.time.LocalDate.class);
                row.add(from.getYear() < 1900 ? "1900-01-01" : from.toString()); // clamped
                java.time.LocalDateTime to = rs.getObject(17, java.time.LocalDateTime.class);
                row.add(to == null ? "NULL" : to.getYear() > 2299 ? "2299-12-31 23:59:59.9999999"
                    : to.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSS")));
                row.add(rs.getString(18));
                row.add(orNull(rs.getString(19)));
                String bio = rs.getString(20);
                row.add(String.valueOf(bio == null ? 0 : bio.getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
                row.add(BIG.equals(bio) ? "1" : "0");
                byte[] photo = rs.getBytes(21);
                row.add(String.valueOf(photo == null ? 0 : photo.length));
                rows.add(row);
            }
        }
        return rows;
    }

    private static String orNull(String s) {
        return s == null ? "NULL" : s;
    }

    private static String hex(byte[] b) {
        return b == null ? "NULL" : HexFormat.of().withUpperCase().formatHex(b);
    }

    private static String time(java.time.LocalTime t, int digits) {
        if (t == null) {
            return "NULL";
        }
        String s = t.format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss"));
        return digits == 0 ? s : s + "." + String.format("%09d", t.getNano()).substring(0, digits);
    }

    static byte[] wkbPoint(double x, double y) {
        return ByteBuffer.allocate(21).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).putInt(1).putDouble(x)
            .putDouble(y).array();
    }

    @Test
    void underTheDefaultPolicyTheSentinelsAreRefusedNamingTheColumn() throws Exception {
        String db = TestEngines.newDatabase("real_refuse");
        RunReport r = Dpone.run(employee(db, "typed_binary_streaming", null), "real-refuse",
            context(server.url()), ProgressListener.NONE, dir.resolve("state"));
        assertFalse(r.passed());
        Blocker b = r.blockers().get(0);
        assertEquals("source.value_out_of_range", b.code());
        assertTrue(List.of("source.columns.valid_from", "source.columns.valid_to").contains(b.subject()), b::subject);
    }

    @Test
    void aSqlVariantIsRefusedWithTheWayOutAndMovesAsTextUnderItsPolicy() throws Exception {
        String db = TestEngines.newDatabase("real_variant");
        Path refused = Manifests.fullRefresh(dir, "variants", db, "route: typed_binary_streaming");
        RunReport r = Dpone.run(refused, "variant-refused", context(server.url()), ProgressListener.NONE,
            dir.resolve("state"));
        assertFalse(r.passed());
        assertEquals("source.type_unsupported", r.blockers().get(0).code());
        assertTrue(r.blockers().get(0).message().contains("source.value_policy.columns.v: as_text"),
            r.blockers().get(0)::message);
        Path asText = Manifests.write(dir.resolve("variants-text.batch.yaml"), java.nio.file.Files.readString(refused)
            .replace("  options: {fetch_size: 1000, chunk_rows: 700}",
                "  options: {fetch_size: 1000, chunk_rows: 700}\n  value_policy: {columns: {v: as_text}}"));
        RunReport ok = Dpone.run(asText, "variant-text", context(server.url()), ProgressListener.NONE,
            dir.resolve("state"));
        assertTrue(ok.passed(), () -> String.valueOf(ok.blockers()));
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(List.of(List.of("1", "42", "int"), List.of("2", "text", "nvarchar"), List.of("3", "NULL", "NULL")),
                ch.query("SELECT id, ifNull(v, 'NULL'), ifNull(v__type, 'NULL') FROM "
                    + ClickHouseSql.table(db, "variants") + " ORDER BY id"));
        }
    }
}
