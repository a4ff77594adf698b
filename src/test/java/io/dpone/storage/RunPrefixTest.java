package io.dpone.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RunPrefixTest {
    private static final String TEMPLATE = "s3://dpone-stage/certification/{run_id}/";

    @Test
    void expandsTemplate() {
        RunPrefix p = RunPrefix.of(TEMPLATE, "r-2024.01_x");
        assertEquals("dpone-stage", p.bucket());
        assertEquals("certification/r-2024.01_x/", p.keyPrefix());
        assertEquals("r-2024.01_x", p.runId());
        assertEquals("s3://dpone-stage/certification/r-2024.01_x/", p.uri());
        assertEquals("certification/r-2024.01_x/orders/part-0.parquet", p.key("orders/part-0.parquet"));
    }

    @Test
    void alwaysEndsWithSlashSoRunsCannotShareAPrefix() {
        assertEquals("runs/r1/", RunPrefix.of("s3://bkt/runs/{run_id}", "r1").keyPrefix());
        assertEquals("r1/", RunPrefix.of("s3://bkt/{run_id}", "r1").keyPrefix());
        assertEquals("x/run-r1/", RunPrefix.of("s3://bkt/x/run-{run_id}", "r1").keyPrefix());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "-lead", ".hidden", "a/b", "a b", "ü", "a\\b",
        "x12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"})
    void rejectsBadRunIds(String runId) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunPrefix.of(TEMPLATE, runId));
        assertTrue(e.getMessage().startsWith("run id must match"), e.getMessage());
    }

    @Test
    void acceptsLongestRunId() {
        String id = "a".repeat(128);
        assertEquals("certification/" + id + "/", RunPrefix.of(TEMPLATE, id).keyPrefix());
        assertThrows(IllegalArgumentException.class, () -> RunPrefix.of(TEMPLATE, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "s3:///certification/{run_id}/",      // no bucket
        "s3://",                               // nothing
        "s3://{run_id}/x/",                    // placeholder in the bucket
        "s3://Upper_Case/{run_id}/",           // invalid bucket
        "s3://dpone-stage/../{run_id}/",       // parent traversal
        "s3://dpone-stage/a/..{run_id}/",      // '..' anywhere
        "s3://dpone-stage/certification/",     // no placeholder: not run-scoped
        "s3://dpone-stage/{run_id}/{run_id}/", // placeholder twice
        "s3://dpone-stage/a//{run_id}/",       // empty segment
        "s3://dpone-stage//{run_id}/",         // leading empty segment
        "s3://dpone-stage/./{run_id}/",        // '.' segment
        "s3://dpone-stage/a?b/{run_id}/",      // query-like characters
        "s3://dpone-stage/{date}/{run_id}/",   // unknown placeholder
        "https://dpone-stage/{run_id}/",       // not s3
        "dpone-stage/{run_id}/"})
    void rejectsBadTemplates(String template) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunPrefix.of(template, "r1"));
        assertTrue(e.getMessage().startsWith("uri_prefix"), e.getMessage());
    }

    @Test
    void rejectsNullTemplate() {
        assertThrows(IllegalArgumentException.class, () -> RunPrefix.of(null, "r1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/abs", "../escape", "a/../../b", "a/./b"})
    void keyCannotEscapeThePrefix(String relative) {
        RunPrefix p = RunPrefix.of(TEMPLATE, "r1");
        assertThrows(IllegalArgumentException.class, () -> p.key(relative));
    }

    @Test
    void constructorValidatesToo() {
        assertThrows(IllegalArgumentException.class, () -> new RunPrefix("b", "x/r1/", "r1"));
        assertThrows(IllegalArgumentException.class, () -> new RunPrefix("bkt", "x/r1", "r1"));
        assertThrows(IllegalArgumentException.class, () -> new RunPrefix("bkt", "x/other/", "r1"));
        assertEquals("x/r1/", new RunPrefix("bkt", "x/r1/", "r1").keyPrefix());
    }

    @Test
    void aKeyIsOwnedByTheRunWhosePrefixHoldsItAndNoOther() {
        String t = "s3://dpone-stage/x/run-{run_id}-data/";
        assertEquals("x/run-", RunPrefix.scanPrefix(t));
        assertEquals("a-data", RunPrefix.owning(t, "x/run-a-data-data/f.parquet").orElseThrow().runId());
        assertEquals("a", RunPrefix.owning(t, "x/run-a-data/f.parquet").orElseThrow().runId());
        assertEquals(java.util.Optional.empty(), RunPrefix.owning(t, "x/other/f.parquet"));
        assertEquals(java.util.Optional.empty(), RunPrefix.owning(t, "x/run-a/f.parquet"), "no suffix: not a run's");
        assertEquals("r-1", RunPrefix.owning("s3://b-1/c/{run_id}/", "c/r-1/p/q").orElseThrow().runId());
    }
}
