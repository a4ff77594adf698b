package io.dpone.discover;

import io.dpone.source.TablePatterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.BlockerCode;
import io.dpone.manifest.ValuePolicy;
import io.dpone.serve.ServeConfigLoader;
import io.dpone.source.ColumnMapping;
import io.dpone.source.ColumnReads;
import io.dpone.source.SourceCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pieces of {@code dpone discover} that need no database: patterns, names, column verdicts, the file rule. */
class DiscoverUnitsTest {
    @TempDir
    Path dir;

    @Test
    void patternsAreCaseInsensitiveGlobsOnSchemaDotTable() {
        TablePatterns p = TablePatterns.of(List.of("dbo.*", "fact_?"), List.of("*_tmp", "DBO.Audit*"));
        assertTrue(p.selects("dbo", "orders"));
        assertTrue(p.selects("sales", "fact_1"), "a pattern without a dot applies in every schema");
        assertFalse(p.selects("sales", "fact_10"));
        assertFalse(p.selects("dbo", "orders_tmp"));
        assertFalse(p.selects("dbo", "audit_trail"));
        assertFalse(p.selects("sales", "orders"));
        assertTrue(TablePatterns.of(List.of(), List.of()).selects("any", "thing"));
        assertThrows(IllegalArgumentException.class, () -> TablePatterns.of(List.of("dbo.[x]"), List.of()));
        assertThrows(IllegalArgumentException.class, () -> TablePatterns.of(List.of(), List.of("a.b.c")));
    }

    @Test
    void jobNamesFollowServesRuleWhateverTheTableIsCalled() {
        assertEquals("dbo-orders", Discovery.jobName("dbo", "orders"));
        String underscore = Discovery.jobName("_s", "_t");
        assertTrue(ServeConfigLoader.NAME.matcher(underscore).matches(), underscore);
        String longName = Discovery.jobName("s".repeat(100), "t".repeat(128));
        assertTrue(ServeConfigLoader.NAME.matcher(longName).matches(), longName);
        assertFalse(longName.equals(Discovery.jobName("s".repeat(100), "t".repeat(127) + "u")),
            "two long names stay apart");
    }

    @Test
    void twoTablesLandingOnOneTargetNameTakeTheirSchemaAsPrefix() {
        var a = new SourceCatalog.Table("dbo", "orders", null, null, false, List.of(), null);
        var b = new SourceCatalog.Table("sales", "Orders", null, null, false, List.of(), null);
        var c = new SourceCatalog.Table("sales", "items", null, null, false, List.of(), null);
        var into = Discovery.targets(List.of(a, b, c), "lake");
        assertEquals(new Catalog.Target("lake", "dbo_orders"), into.get("dbo.orders"));
        assertEquals(new Catalog.Target("lake", "sales_Orders"), into.get("sales.orders"));
        assertEquals(new Catalog.Target("lake", "items"), into.get("sales.items"));
        var bySchema = Discovery.targets(List.of(a, b), null);
        assertEquals(new Catalog.Target("dbo", "orders"), bySchema.get("dbo.orders"));
        assertEquals(new Catalog.Target("sales", "Orders"), bySchema.get("sales.orders"));
    }

    @Test
    void columnVerdictsComeFromTheMappingAndASqlVariantMovesUnderAsText() {
        ColumnMapping variant = mapping(new ColumnReads.Described("v", Types.VARCHAR, "sql_variant", 8000, 0, true,
            false), ValuePolicy.REFUSE);
        assertEquals("refused", TableClassifier.column(variant, false).verdict());
        assertEquals(BlockerCode.SOURCE_TYPE_UNSUPPORTED.code(), TableClassifier.column(variant, false).refusal().code());
        ColumnMapping asText = mapping(new ColumnReads.Described("v", Types.VARCHAR, "sql_variant", 8000, 0, true,
            false), ValuePolicy.AS_TEXT);
        Catalog.ColumnEntry e = TableClassifier.column(asText, true);
        assertEquals("policy", e.verdict());
        assertEquals(List.of("v", "v__type"), e.targets().stream().map(Catalog.ColumnTarget::name).toList());
        assertEquals("as_text", e.targets().get(0).policy());
        assertEquals("converted", TableClassifier.column(mapping(new ColumnReads.Described("h", Types.VARBINARY,
            "hierarchyid", 892, 0, false, false), ValuePolicy.REFUSE), false).verdict());
        assertEquals("range_checked", TableClassifier.column(mapping(new ColumnReads.Described("d", Types.DATE,
            "date", 10, 0, false, false), ValuePolicy.REFUSE), false).verdict());
        assertEquals("exact", TableClassifier.column(mapping(new ColumnReads.Described("i", Types.INTEGER, "int",
            10, 0, false, false), ValuePolicy.REFUSE), false).verdict());
        String manifest = GeneratedText.manifest(new Catalog.TableEntry("dbo", "vars", "policy", List.of(e),
            List.of("id"), List.of(), 1L, 1L, new Catalog.Cdc(false, List.of(), null),
            new Catalog.Recommendation("typed_binary_streaming", "full_refresh", 1, List.of("id"), List.of()),
            new Catalog.Target("lake", "vars"), List.of(), List.of(), null), "dbo-vars", "src", "dst",
            Map.of("v", ValuePolicy.AS_TEXT));
        assertTrue(manifest.contains("  value_policy:\n    columns:\n      v: as_text\n"), manifest);
    }

    private static ColumnMapping mapping(ColumnReads.Described d, ValuePolicy policy) {
        ColumnReads.Result r = ColumnReads.read(d, policy, "dbo.t." + d.name(), "source.value_policy.columns." + d.name());
        return new ColumnMapping(d.name(), d.typeName(), d.nullable(), false, true,
            r.columns() == null ? List.of() : r.columns(), r.refusal());
    }

    @Test
    void theFileRuleReplacesOnlyWhatItWroteAndNeverFollowsARecordedPathOut() throws Exception {
        GeneratedFiles first = new GeneratedFiles(dir, Map.of());
        Catalog.FileEntry a = first.write("m/a.yaml", "manifest", "dbo.a", "one\n");
        assertEquals("written", a.state());
        // untouched since: replaced
        GeneratedFiles second = new GeneratedFiles(dir, Map.of("m/a.yaml", a.sha256()));
        assertEquals("updated", second.write("m/a.yaml", "manifest", "dbo.a", "two\n").state());
        assertEquals("two\n", Files.readString(dir.resolve("m/a.yaml")));
        // edited since: kept, the proposal beside it
        Files.writeString(dir.resolve("m/a.yaml"), "mine\n");
        GeneratedFiles third = new GeneratedFiles(dir, Map.of("m/a.yaml", GeneratedFiles.sha256("two\n".getBytes())));
        Catalog.FileEntry kept = third.write("m/a.yaml", "manifest", "dbo.a", "three\n");
        assertEquals("kept_edited", kept.state());
        assertEquals("mine\n", Files.readString(dir.resolve("m/a.yaml")));
        assertEquals("three\n", Files.readString(dir.resolve("m/a.yaml.proposed")));
        assertFalse(GeneratedFiles.safe("../outside.yaml"));
        assertFalse(GeneratedFiles.safe("/etc/passwd"));
        assertTrue(GeneratedFiles.safe("manifests/dbo.a.batch.yaml"));
    }

    @Test
    void thePublishedCatalogSchemaInDocsIsTheOneInTheJar() throws Exception {
        assertEquals(Files.readString(Path.of("src/main/resources/schema/catalog.schema.json")),
            Files.readString(Path.of("docs/catalog.schema.json")));
    }
}
