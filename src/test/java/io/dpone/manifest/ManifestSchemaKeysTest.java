package io.dpone.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No ignored keys: every leaf key of docs/batch-manifest.schema.json is in exactly one of two lists, {@link #BEHAVIOUR}
 * (the test that shows the key changes what a run, a check or a certification does) or {@link #INFORMATIONAL} (keys
 * documented as informational in docs/manifest.md, "What every key does"). A key added to the schema and to neither
 * list fails this test; so does a named test that does not exist, and an informational key the document does not list.
 */
class ManifestSchemaKeysTest {
    private static final String COLUMNAR = "source.options.native_transfer.snapshot.columnar_fast_path.";
    private static final String STORAGE = COLUMNAR + "object_storage.";
    private static final String DESIGN = "sink.options.physical_design.storage.clickhouse.";

    /** Key -> the test (Class#method, in io.dpone.*) that shows what the key changes. */
    static final Map<String, String> BEHAVIOUR = Map.ofEntries(
        Map.entry("source.connection_ref", "cli.CliHabitsTest#checkReportsAnUnknownAliasNextToTheSchemasProblems"),
        Map.entry("source.table.schema", "route.FullRefreshRouteTest#loadsEveryRowWithGreenGatesAndLeavesNothingBehind"),
        Map.entry("source.table.name",
            "certify.CertificationTest#preflightWithEveryRouteBlockedFailsAndStillWritesTheEvidence"),
        Map.entry("source.columns", "route.TransferProcessorsTest#everyColumnTheManifestNamesIsCheckedBeforeAnythingIsWritten"),
        Map.entry("source.options.chunk_rows",
            "route.TransferProcessorsTest#prepareCreatesThisRunsStagingTableAndStreamsTheSourceInChunksOfTheManifestsSize"),
        Map.entry("source.value_policy.default",
            "route.ValuePolicyRouteTest#clampLandsGreenOnEveryFormatWithTheClampedCountsAndExactTimes"),
        Map.entry("source.value_policy.columns.*",
            "route.ValuePolicyRouteTest#nullPolicyNullsANullableColumnAndAPolicyThatChangedNothingSaysZero"),
        Map.entry("source.options.parallel_readers",
            "route.ParallelReadRouteTest#keyRangesWithGapsAndNegativeKeysLoadEveryRowExactlyOnce"),
        Map.entry("source.options.parallel_min_rows",
            "route.ParallelReadRouteTest#aSmallTableFallsBackToOneReaderWithANoteNotAnErrorAndACompositeKeySplits"),
        Map.entry(COLUMNAR + "mode", "certify.CertificationTest#columnarModeRequiredBlocksTheStreamingRoutesWithTheirCode"),
        Map.entry(COLUMNAR + "chunk_rows", "route.FullRefreshRouteTest#parquetRoutesTimeTheParquetWriteApartFromTheSourceRead"),
        Map.entry(STORAGE + "uri_prefix", "certify.CertificationTest#leftoverStagingTableOrObjectFailsTheCleanupAudit"),
        Map.entry(STORAGE + "runtime_access.connection_type",
            "manifest.ManifestBlockerTest#optionsTheRuntimeCannotHonourAreRefusedByCheckWithTheirPaths"),
        Map.entry(STORAGE + "runtime_access.connection_id",
            "manifest.ManifestBlockerTest#shippedCertificationExampleChecksCleanAndItsStorageAliasIsChecked"),
        Map.entry(STORAGE + "clickhouse_read_access.mode",
            "certify.CertificationTest#unreachableStoreForClickHouseIsParquetReadUnsupported"),
        Map.entry(STORAGE + "clickhouse_read_access.named_collection",
            "certify.CertificationTest#missingNamedCollectionBlocksTheObjectRoutesOnly"),
        Map.entry(STORAGE + "preflight.require_runtime_write",
            "certify.CertificationTest#preflightRequirementsSwitchedOffDoNotBlockTheRoute"),
        Map.entry(STORAGE + "preflight.require_clickhouse_read",
            "certify.CertificationTest#preflightRequirementsSwitchedOffDoNotBlockTheRoute"),
        Map.entry("sink.connection_ref",
            "route.FullRefreshRouteTest#aBulkModeThatIsNotTheSinksTransportIsRefusedBeforeAnySideEffect"),
        Map.entry("sink.table.schema", "route.FullRefreshRouteTest#loadsEveryRowWithGreenGatesAndLeavesNothingBehind"),
        Map.entry("sink.table.name", "route.FullRefreshRouteTest#loadsEveryRowWithGreenGatesAndLeavesNothingBehind"),
        Map.entry("sink.staging.schema",
            "publication.plan.PlanCommandTest#everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne"),
        Map.entry("sink.strategy.max_source_bytes", "route.FullRefreshRouteTest#maxSourceBytesStopsTheRunBeforePublication"),
        Map.entry("sink.options.lineage",
            "publication.plan.PlanCommandTest#everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne"),
        Map.entry("sink.options.route", "route.FullRefreshRouteTest#parquetRoutesTimeTheParquetWriteApartFromTheSourceRead"),
        Map.entry("sink.options.order_by", "route.FullRefreshRouteTest#orderByANullableColumnIsRefusedWithItsManifestPath"),
        Map.entry("sink.options.external_artifact_store_path",
            "publication.plan.PlanCommandTest#everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne"),
        Map.entry(DESIGN + "engine", "publication.plan.PlanCommandTest#everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne"),
        Map.entry(DESIGN + "cluster.name", "publication.plan.PlanCommandTest#aLocalManifestPlansALocalPublication"),
        Map.entry(DESIGN + "cluster.ddl_scope",
            "publication.plan.PlanCommandTest#everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne"),
        Map.entry(DESIGN + "cluster.replication_mode",
            "publication.plan.PlanCommandTest#everyStaticBlockerIsReportedWithTheFullDecisionAndExitOne"),
        Map.entry(DESIGN + "cluster.external_content_row_budget",
            "publication.sim.PublicationFaultTest#anArtifactOverTheRowBudgetReleasesTheFenceWithoutTouchingAMember"),
        Map.entry("sink.options.clickhouse_bulk.mode",
            "route.FullRefreshRouteTest#aBulkModeThatIsNotTheSinksTransportIsRefusedBeforeAnySideEffect"),
        Map.entry("sink.options.clickhouse_bulk.columnar_pull.use_cluster_function",
            "certify.CertificationTest#useClusterFunctionDecidesTheS3ClusterRoutesPullWhenTheClusterIsMissing"),
        Map.entry("sink.options.clickhouse_bulk.columnar_pull.cluster",
            "certify.CertificationTest#useClusterFunctionDecidesTheS3ClusterRoutesPullWhenTheClusterIsMissing"),
        Map.entry("quality.distinct_columns",
            "route.TransferProcessorsTest#everyColumnTheManifestNamesIsCheckedBeforeAnythingIsWritten"),
        Map.entry("quality.typed_hash", "route.FullRefreshRouteTest#typedHashModeAndSampleModuloDecideWhatTheTypedHashGateHashes"),
        Map.entry("quality.hash_sample_modulo",
            "route.FullRefreshRouteTest#typedHashModeAndSampleModuloDecideWhatTheTypedHashGateHashes"),
        Map.entry("cdc.backend", "cdc.mssql.SnapshotHandOverTest#changesDuringTheSnapshotAreNeitherLostNorAppliedTwice"),
        Map.entry("cdc.pipeline_name", "cdc.mssql.SnapshotHandOverTest#changesDuringTheSnapshotAreNeitherLostNorAppliedTwice"),
        Map.entry("cdc.log_dataset", "cdc.mssql.SnapshotHandOverTest#changesDuringTheSnapshotAreNeitherLostNorAppliedTwice"),
        Map.entry("cdc.unique_keys",
            "publication.runtime.ClusterPublicationRunnerTest#aClusterPublicationWithoutAReceiptHandsNothingOver"),
        Map.entry("cdc.capture_instance",
            "cdc.mssql.SnapshotHandOverTest#aFileOffsetStoreCommitsTheFirstCheckpointIntoCheckpointJson"),
        Map.entry("cdc.offset_store", "cdc.mssql.SnapshotHandOverTest#aFileOffsetStoreCommitsTheFirstCheckpointIntoCheckpointJson"),
        Map.entry("cdc.checkpoint_json",
            "cdc.mssql.SnapshotHandOverTest#aFileOffsetStoreCommitsTheFirstCheckpointIntoCheckpointJson"),
        Map.entry("retry.max_retries", "manifest.RetryBlockTest#maxRetriesAndMaxTimeBoundTheRunsRetries"),
        Map.entry("retry.max_time", "manifest.RetryBlockTest#maxRetriesAndMaxTimeBoundTheRunsRetries"),
        Map.entry("retry.initial_backoff", "manifest.RetryBlockTest#theBackoffKeysSpaceTheRetries"),
        Map.entry("retry.max_backoff", "manifest.RetryBlockTest#theBackoffKeysSpaceTheRetries"),
        Map.entry("certification.target_schema",
            "certify.CertificationKeysTest#targetSchemaMovesTheSafeTargetsAndScenarioRoutesAndRowLimitShapeTheMatrix"),
        Map.entry("certification.scenarios.*.routes",
            "certify.CertificationKeysTest#targetSchemaMovesTheSafeTargetsAndScenarioRoutesAndRowLimitShapeTheMatrix"),
        Map.entry("certification.scenarios.*.row_limit",
            "certify.CertificationKeysTest#targetSchemaMovesTheSafeTargetsAndScenarioRoutesAndRowLimitShapeTheMatrix"),
        Map.entry("certification.scenarios.*.repetitions",
            "certify.CertificationTest#repetitionsAreAScenarioOptionAndABuiltInNameKeepsItsDefaults"));

    /** Keys docs/manifest.md documents as informational: they name or describe, and change no load. */
    static final Set<String> INFORMATIONAL = Set.of("name", "source.type", "sink.type", "sink.strategy.mode",
        "source.options.fetch_size", COLUMNAR + "provider", "certification.scenarios.*.description");

    @Test
    void everySchemaKeyChangesBehaviourOrIsDocumentedAsInformational() throws Exception {
        JsonNode schema = new ObjectMapper().readTree(Path.of("docs/batch-manifest.schema.json").toFile());
        List<String> leaves = new ArrayList<>();
        walk(schema, schema, "", leaves);
        assertTrue(leaves.size() > 40, "the walk found the schema's keys: " + leaves);

        Set<String> unclassified = new TreeSet<>();
        for (String key : leaves) {
            boolean behaviour = BEHAVIOUR.containsKey(key);
            boolean informational = INFORMATIONAL.contains(key);
            assertTrue(!(behaviour && informational), key + " is in both lists");
            if (!behaviour && !informational) {
                unclassified.add(key);
            }
        }
        assertEquals(Set.of(), unclassified, "schema keys with neither a behaviour test nor an informational entry "
            + "in docs/manifest.md: add a test that shows what the key changes, or refuse the key");
        Set<String> stale = new TreeSet<>(BEHAVIOUR.keySet());
        stale.addAll(INFORMATIONAL);
        leaves.forEach(stale::remove);
        assertEquals(Set.of(), stale, "listed keys the schema no longer has");

        for (Map.Entry<String, String> e : BEHAVIOUR.entrySet()) {
            String[] at = e.getValue().split("#");
            Class<?> test = Class.forName("io.dpone." + at[0]);
            assertTrue(Arrays.stream(test.getDeclaredMethods()).map(Method::getName).anyMatch(at[1]::equals),
                e.getKey() + ": no test " + e.getValue());
        }

        String doc = Files.readString(Path.of("docs/manifest.md"));
        int section = doc.indexOf("## What every key does");
        assertTrue(section >= 0, "docs/manifest.md has the key table");
        String table = doc.substring(section);
        Set<String> documentedInformational = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `([^`]+)` \\| informational").matcher(table);
        while (row.find()) {
            documentedInformational.add(row.group(1));
        }
        assertEquals(new TreeSet<>(INFORMATIONAL), documentedInformational,
            "docs/manifest.md lists exactly the informational keys as informational");
    }

    /** Collects the leaf keys (dotted paths; {@code *} for a map's values), following {@code $ref}. */
    private static void walk(JsonNode root, JsonNode node, String path, List<String> out) {
        JsonNode n = node;
        while (n.has("$ref")) {
            n = root.at(n.get("$ref").asText().substring(1));
        }
        if (n.has("properties")) {
            n.get("properties").fields().forEachRemaining(e ->
                walk(root, e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out));
        } else if (n.path("additionalProperties").isObject()) {
            walk(root, n.get("additionalProperties"), path + ".*", out);
        } else {
            out.add(path);
        }
    }
}
