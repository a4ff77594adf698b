package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.serve.ConnectionReach;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connection half of {@code dpone check --connect}: every alias the manifest references (source, sink, object
 * storage) is reached once ({@link ConnectionReach}: a login, {@code SELECT 1}, a list), all at once, each within
 * {@link #DEADLINE}, and said per alias: reached, or why not and what to check. Nothing is written anywhere.
 */
final class ConnectionsCheck {
    /** How long one alias may take to answer before it is reported as not answering. */
    static final Duration DEADLINE = Duration.ofSeconds(20);

    private ConnectionsCheck() {
    }

    /** One alias: where the manifest names it, its type, whether it answered and in how long; why not, redacted. */
    record Connection(String alias, String type, String path, boolean reached, long millis, String detail) {
    }

    /** What the connection half found: one entry per alias, a {@code connection.failed} blocker per failure. */
    record Result(List<Connection> connections, List<Blocker> blockers) {
        boolean reached(String path) {
            return connections.stream().anyMatch(c -> c.path().equals(path) && c.reached());
        }
    }

    /**
     * Reaches the aliases of {@code refs} (manifest path to alias, as {@code ManifestLoader.connectionRefs} reads them;
     * the types by path in {@code types}), each on a thread of its own so a silent server costs at most
     * {@link #DEADLINE} and the others are still said.
     */
    static Result run(ConnectionContext ctx, Map<String, String> refs, Map<String, ConnectionType> types) {
        Map<String, CompletableFuture<String>> probes = new LinkedHashMap<>();
        Map<String, Long> started = new LinkedHashMap<>();
        refs.forEach((path, alias) -> {
            started.put(path, System.nanoTime());
            probes.put(path, CompletableFuture.supplyAsync(() -> ConnectionReach.reach(ctx, alias, path),
                ConnectionsCheck::daemon));
        });
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        List<Connection> out = new ArrayList<>();
        List<Blocker> blockers = new ArrayList<>();
        for (var e : probes.entrySet()) {
            String path = e.getKey();
            String alias = refs.get(path);
            String failure;
            try {
                failure = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException timeout) {
                failure = "no answer within " + DEADLINE.toSeconds() + " s";
            } catch (ExecutionException | InterruptedException other) {
                failure = io.dpone.connect.Redactor.global().describe(other.getCause() == null ? other
                    : other.getCause());
            }
            long millis = (System.nanoTime() - started.get(path)) / 1_000_000;
            ConnectionType type = types.get(path);
            out.add(new Connection(alias, type.name().toLowerCase(java.util.Locale.ROOT), path, failure == null,
                millis, failure));
            if (failure != null) {
                blockers.add(Blocker.of(BlockerCode.CONNECTION_FAILED, path, "connection alias '" + alias + "' ("
                    + type.name().toLowerCase(java.util.Locale.ROOT) + ") was not reached: " + failure + ". "
                    + nextStep(type)));
            }
        }
        return new Result(out, blockers);
    }

    /** What to check when an alias of {@code type} does not answer. */
    private static String nextStep(ConnectionType type) {
        String what = switch (type) {
            case MSSQL -> "that SQL Server is up and accepts logins, the host and port of the alias's JDBC URL";
            case CLICKHOUSE -> "that ClickHouse is up, the host and port (HTTP) of the alias's URL";
            default -> "that the object store is up, the alias's endpoint and bucket";
        };
        return "Check " + what + ", and its credential source (password_env or password_file in the connection "
            + "context)";
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "dpone-check-connect");
        t.setDaemon(true); // a probe blocked in a driver call must not keep the process alive after the answer
        t.start();
    }

    /** The text lines of the result. */
    static String text(Result r) {
        StringBuilder sb = new StringBuilder("connections:\n");
        for (Connection c : r.connections()) {
            sb.append("  ").append(c.alias()).append(" (").append(c.type()).append(", ").append(c.path())
                .append("): ").append(c.reached() ? "reached in " + c.millis() + " ms" : "NOT reached").append('\n');
        }
        return sb.toString();
    }
}
