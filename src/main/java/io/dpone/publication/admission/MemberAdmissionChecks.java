package io.dpone.publication.admission;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.publication.MemberId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What admission checks on one open member before any extraction: the target database is Atomic, the target (if
 * it exists) is not Distributed and has the mode's engine family, the principal's grants cover the protocol's
 * statements (best effort: {@code SHOW GRANTS} of the current user; grants through roles cannot be expanded and
 * are not judged), and the distributed-DDL queue keeps entries ({@code distributed_ddl.task_max_lifetime}) longer
 * than the maximum recovery window. Every finding is a blocker whose subject is the opaque member id; a query the
 * member refuses is a typed blocker too ({@link AdmissionFailures}).
 */
public final class MemberAdmissionChecks {
    /** The publication mode: which engine family a target must have. */
    public enum Mode { INTERNAL, EXTERNAL }

    /** What the protocol runs on the target database: create, load, read, exchange (and drop) tables. */
    static final List<String> REQUIRED = List.of("SELECT", "INSERT", "CREATE TABLE", "DROP TABLE");
    /** ClickHouse's default {@code distributed_ddl.task_max_lifetime} (one week), for servers that do not list it. */
    static final long DEFAULT_TASK_MAX_LIFETIME_SECONDS = DdlQueueSettings.DEFAULT_TASK_MAX_LIFETIME_SECONDS;

    private MemberAdmissionChecks() {
    }

    /** The checks with the member's queue settings read here (see {@link DdlQueueSettings#read}). */
    public static List<Blocker> check(MemberId member, ClickHouseEndpoint endpoint, String database, String table,
                                      Mode mode, Duration maxRecoveryWindow) {
        return check(member, endpoint, database, table, mode, maxRecoveryWindow,
            DdlQueueSettings.read(member, endpoint));
    }

    /**
     * The checks with the member's already-read queue settings. A query the member refuses throws a typed
     * {@code publication.admission_query_failed} (or {@code publication.member_unreachable}), never an untyped error.
     */
    public static List<Blocker> check(MemberId member, ClickHouseEndpoint endpoint, String database, String table,
                                      Mode mode, Duration maxRecoveryWindow, DdlQueueSettings queue) {
        List<Blocker> blockers = new ArrayList<>();
        String subject = member.toString();
        ClickHouseOperations ops = endpoint.operations();
        Optional<String> db = AdmissionFailures.query(subject, "system.databases", () -> ops.databaseEngine(database));
        databaseEngine(member, db.orElse(null)).ifPresent(blockers::add);
        Optional<String> t = AdmissionFailures.query(subject, "system.tables",
            () -> ops.table(database, table).map(ClickHouseOperations.TableInfo::engine));
        targetEngine(member, t.orElse(null), mode).ifPresent(blockers::add);
        showGrants(endpoint).ifPresent(lines -> grants(member, database, lines).ifPresent(blockers::add));
        retention(member, Long.toString(queue.taskMaxLifetimeSeconds()), maxRecoveryWindow).ifPresent(blockers::add);
        return blockers;
    }

    static Optional<Blocker> databaseEngine(MemberId member, String engine) {
        if ("Atomic".equals(engine)) {
            return Optional.empty();
        }
        return Optional.of(Blocker.of(BlockerCode.PUBLICATION_DATABASE_NOT_ATOMIC, member.toString(),
            engine == null ? "the target database does not exist on member " + member
                : "the target database on member " + member + " uses engine " + engine + ", not Atomic",
            Map.of("member", member.toString())));
    }

    /** A missing target (first publication) passes; the protocol creates it with the mode's engine. */
    static Optional<Blocker> targetEngine(MemberId member, String engine, Mode mode) {
        if (engine == null) {
            return Optional.empty();
        }
        if (engine.equals("Distributed")) {
            return Optional.of(Blocker.of(BlockerCode.PUBLICATION_DISTRIBUTED_TARGET, member.toString(),
                "the publication target on member " + member + " is a Distributed table",
                Map.of("member", member.toString())));
        }
        boolean mergeTree = engine.matches("^[A-Za-z]*MergeTree$");
        boolean replicated = engine.startsWith("Replicated");
        boolean fits = mergeTree && (mode == Mode.INTERNAL) == replicated;
        if (fits) {
            return Optional.empty();
        }
        return Optional.of(Blocker.of(BlockerCode.PUBLICATION_ENGINE_MODE_MISMATCH, member.toString(),
            "the target on member " + member + " uses engine " + engine + "; " + mode.name().toLowerCase(Locale.ROOT)
                + " mode needs " + (mode == Mode.INTERNAL ? "a Replicated*MergeTree" : "a non-replicated *MergeTree"),
            Map.of("member", member.toString(), "engine", engine)));
    }

    private static Optional<List<String>> showGrants(ClickHouseEndpoint endpoint) {
        try {
            return Optional.of(endpoint.operations().grants());
        } catch (RuntimeException e) {
            return Optional.empty(); // best effort: a principal that cannot list its grants is not judged here
        }
    }

    /**
     * Judges {@code SHOW GRANTS} lines ({@code GRANT SELECT, INSERT ON db.* TO user}). No lines, or a role grant
     * ({@code GRANT role TO user}), means the effective privileges are not visible here: nothing is reported.
     */
    static Optional<Blocker> grants(MemberId member, String database, List<String> lines) {
        Set<String> held = new LinkedHashSet<>();
        boolean roles = false;
        for (String line : lines) {
            String l = line.strip();
            if (!l.startsWith("GRANT ")) {
                continue;
            }
            int on = l.indexOf(" ON ");
            if (on < 0) {
                roles = true;
                continue;
            }
            int to = l.indexOf(" TO ", on);
            String scope = (to < 0 ? l.substring(on + 4) : l.substring(on + 4, to)).replace("`", "").strip();
            if (!scope.equals("*.*") && !scope.equals(database + ".*")) {
                continue;
            }
            for (String p : l.substring(6, on).split(",")) {
                held.add(p.strip().toUpperCase(Locale.ROOT));
            }
        }
        if (lines.isEmpty() || roles) {
            return Optional.empty();
        }
        List<String> missing = REQUIRED.stream().filter(r -> !covered(held, r)).toList();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Blocker.of(BlockerCode.PUBLICATION_GRANTS_MISSING, member.toString(),
            "the runtime principal on member " + member + " lacks " + String.join(", ", missing)
                + " on the target database", Map.of("member", member.toString(), "missing", missing)));
    }

    private static boolean covered(Set<String> held, String required) {
        if (held.contains("ALL") || held.contains("ALL PRIVILEGES") || held.contains(required)) {
            return true;
        }
        // CREATE covers CREATE TABLE, DROP covers DROP TABLE
        int space = required.indexOf(' ');
        return space > 0 && held.contains(required.substring(0, space));
    }

    /** Blocks when the queue keeps entries no longer than the recovery window; a missing value is the default. */
    static Optional<Blocker> retention(MemberId member, String taskMaxLifetimeSeconds, Duration maxRecoveryWindow) {
        long seconds = taskMaxLifetimeSeconds == null || taskMaxLifetimeSeconds.isBlank()
            ? DEFAULT_TASK_MAX_LIFETIME_SECONDS : Long.parseLong(taskMaxLifetimeSeconds.strip());
        if (seconds > maxRecoveryWindow.toSeconds()) {
            return Optional.empty();
        }
        return Optional.of(Blocker.of(BlockerCode.PUBLICATION_DDL_RETENTION_TOO_SHORT, member.toString(),
            "member " + member + " keeps distributed-DDL queue entries for " + seconds
                + " s, not longer than the maximum recovery window of " + maxRecoveryWindow.toSeconds() + " s",
            Map.of("member", member.toString(), "task_max_lifetime_seconds", seconds,
                "max_recovery_window_seconds", maxRecoveryWindow.toSeconds())));
    }
}
