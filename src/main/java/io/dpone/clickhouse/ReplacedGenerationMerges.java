package io.dpone.clickhouse;

import java.util.Optional;

/**
 * Pauses the background merges of the generation a full refresh is about to replace, on the embedded engine only.
 *
 * <p>Why: the embedded engine merges inside this process, on the run's own two cores and in its own memory, and
 * a one-shot CLI exits soon after publishing, so the table it leaves (one part per chunk) is merged the next time
 * the engine opens: during the next run of that table, whose swap then throws the merge's result away. Measured on
 * a 5M-row demo table (50 parts): 7.1 s of merge CPU in a 29 s run (bench/README.md). A server merges on its own
 * hardware, so there the target is left alone (and a stopped merge there would outlive a killed run).
 *
 * <p>On success the paused table becomes the predecessor and is dropped; on failure {@link #resume()} lets it
 * merge again. The pause lives in the engine's memory: a killed process takes it along.
 */
public final class ReplacedGenerationMerges {
    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;
    private boolean paused = true;

    private ReplacedGenerationMerges(ClickHouseEndpoint ch, String database, String table) {
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    /** Pauses merges of {@code database.table} when the engine is embedded and the table exists. */
    public static Optional<ReplacedGenerationMerges> pause(ClickHouseEndpoint ch, String database, String table) {
        TableAdmin admin = new TableAdmin(ch);
        if (!"embedded".equals(ch.kind()) || !admin.exists(database, table)) {
            return Optional.empty();
        }
        admin.stopMerges(database, table);
        return Optional.of(new ReplacedGenerationMerges(ch, database, table));
    }

    /** Lets the table merge again (the run did not replace it). Idempotent; a table gone since is no error. */
    public void resume() {
        TableAdmin admin = new TableAdmin(ch);
        if (paused && admin.exists(database, table)) {
            admin.startMerges(database, table);
        }
        paused = false;
    }
}
