package io.dpone.cdc;

import static io.dpone.cdc.CdcFixtures.checkpointToken;
import static io.dpone.cdc.CdcFixtures.exampleDir;
import static io.dpone.cdc.CdcFixtures.stage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.local.FileOffsetStore;
import io.dpone.cdc.local.JsonEventsReader;
import io.dpone.cdc.local.LocalSinkApplier;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTick;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.retry.TransientFailure;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: the offset commit is never run twice. After a transient fault in it, the tick reads the checkpoint back:
 * committed when the commit's write landed (its answer was lost), failed typed with the commit's blocker and the
 * checkpoint untouched when it did not; a permanent failure is never read back into a success.
 */
class CdcCommitReconcileTest {
    @TempDir
    Path dir;

    @BeforeEach
    void commitFirstBatch() {
        stage(dir, "orders/events.json");
        assertEquals(0, CdcCli.run(CdcCli.specExample(dir)).exitCode());
        assertEquals("0x14", checkpointToken(dir));
    }

    /** Commits through a file store, then fails as {@code failure} says (before or after the write). */
    private CdcRuntimeRunReport tick(boolean writeFirst, DponeException failure, int[] commits) {
        stage(dir, "orders/events_batch2.json");
        CdcRunOptions o = CdcFixtures.specOptions(dir);
        FileOffsetStore file = new FileOffsetStore(o.checkpointJson());
        CdcOffsetStore flaky = new CdcOffsetStore() {
            @Override
            public Optional<CdcOffset> load(StreamIdentity stream) {
                return file.load(stream);
            }

            @Override
            public void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset next, String writer) {
                commits[0]++;
                if (writeFirst) {
                    file.commit(stream, expected, next, writer);
                }
                throw failure;
            }
        };
        EventIdentityIdempotency identity = new EventIdentityIdempotency();
        return CdcTickRunner.run(new CdcTick("test-run", o, new CdcTick.Adapters(new JsonEventsReader(o.eventsJson(),
            o.stream()), identity, new LocalSinkApplier(exampleDir(dir).resolve("sink"), identity), flaky), 1000));
    }

    private static TransientFailure reset() {
        return new TransientFailure(BlockerCode.CONNECTION_FAILED, "clickhouse_demo", "the connection was reset");
    }

    @Test
    void aCommitWhoseAnswerWasLostIsReadBackAsCommitted() {
        int[] commits = {0};
        CdcRuntimeRunReport r = tick(true, reset(), commits);
        assertTrue(r.passed() && r.committed(), String.valueOf(r.blockers()));
        assertEquals(1, commits[0], "the commit ran once");
        assertEquals(r.nextOffset().get("position"), checkpointToken(dir));
        assertFalse("0x14".equals(checkpointToken(dir)));
    }

    @Test
    void aCommitThatDidNotLandFailsTypedAndLeavesTheCheckpoint() {
        int[] commits = {0};
        CdcRuntimeRunReport r = tick(false, reset(), commits);
        assertFalse(r.passed() || r.committed());
        assertEquals(List.of("connection.failed"), r.blockers().stream().map(Blocker::code).toList());
        assertEquals(1, commits[0], "never run again");
        assertEquals("0x14", checkpointToken(dir));
    }

    @Test
    void aPermanentFailureAfterTheWriteIsNotReadBackIntoASuccess() {
        int[] commits = {0};
        CdcRuntimeRunReport r = tick(true, new DponeException(BlockerCode.CONNECTION_FAILED, "clickhouse_demo",
            "refused"), commits);
        assertFalse(r.passed() || r.committed());
        assertEquals(List.of("connection.failed"), r.blockers().stream().map(Blocker::code).toList());
    }
}
