package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.error.DponeException;
import io.dpone.retry.TransientFaults;
import io.dpone.testing.FaultProxy;
import io.dpone.testing.twin.TwinProcess;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A response cut short is a transient, typed failure, never an empty or short result (issue 35, the bug the fault suite
 * found with seed {@code 0x351003}: an orderly close inside a query's response head read as a 200 with no body, and a
 * statistics query got zero rows). The {@link FaultProxy} closes (FIN both ways) or resets every connection at one
 * byte offset, and the offset sweeps the whole exchange of one query (request, response head and body): every
 * attempt returns the complete result or fails with a typed blocker that {@link TransientFaults} retries.
 */
@io.dpone.testing.ProcessTest
class ServerClickHouseTruncationTest {
    private static final String ROWS_SQL = "SELECT number, toString(number * 7) FROM numbers(40) ORDER BY number";

    @Test
    void anOrderlyCloseAtAnyOffsetOfAQueryIsATransientFailureOrTheWholeResult() throws Exception {
        sweep(FaultProxy.Kind.CLOSE, 1, e -> e.query(ROWS_SQL), expected(false));
    }

    @Test
    void anOrderlyCloseAtAnyOffsetOfAReadOnlyQueryIsATransientFailureOrTheWholeResult() throws Exception {
        sweep(FaultProxy.Kind.CLOSE, 1, e -> e.queryReadOnly(ROWS_SQL), expected(true));
    }

    @Test
    void aResetAtEverySeventeenthOffsetOfAQueryIsATransientFailureOrTheWholeResult() throws Exception {
        sweep(FaultProxy.Kind.RESET, 17, e -> e.query(ROWS_SQL), expected(false));
    }

    private static List<List<String>> expected(boolean names) {
        List<List<String>> rows = new ArrayList<>();
        if (names) {
            rows.add(List.of("number", "toString(multiply(number, 7))"));
        }
        for (int i = 0; i < 40; i++) {
            rows.add(List.of(String.valueOf(i), String.valueOf(i * 7)));
        }
        return rows;
    }

    /**
     * Runs {@code query} through a proxy that faults every connection at offset 0, stride, 2 * stride, ... until an
     * offset lies beyond the whole exchange (no fault fires); each attempt must return {@code want} or fail transient
     * and typed.
     */
    private static void sweep(FaultProxy.Kind kind, int stride, Function<ClickHouseEndpoint, List<List<String>>> query,
                              List<List<String>> want) throws Exception {
        TwinProcess twin = TwinProcess.shared();
        URI url = URI.create(twin.url());
        try (ServerClickHouseEndpoint direct = ServerClickHouseEndpoint.open(spec(twin.url(), "30s"))) {
            List<List<String>> got = query.apply(direct);
            if (want.size() > 40) {
                // the header row's name is the server's own; compare the data rows
                want = new ArrayList<>(want);
                want.set(0, got.get(0));
            }
            assertEquals(want, got, "without faults");
        }
        int failed = 0;
        int whole = 0;
        List<String> violations = new ArrayList<>();
        long offset = 0;
        for (; offset < 64 * 1024; offset += stride) {
            try (FaultProxy proxy = FaultProxy.at(url.getHost(), url.getPort(), kind, offset, 500);
                 ServerClickHouseEndpoint e = ServerClickHouseEndpoint.open(spec("http://127.0.0.1:" + proxy.port(), "5s"))) {
                try {
                    List<List<String>> got = query.apply(e);
                    if (!want.equals(got)) {
                        violations.add("offset " + offset + ": " + got.size() + " rows instead of " + want.size());
                    } else {
                        whole++;
                    }
                } catch (RuntimeException x) {
                    if (!(x instanceof DponeException) || !TransientFaults.isTransient(x)) {
                        violations.add("offset " + offset + ": " + x.getClass().getSimpleName() + " "
                            + x.getMessage());
                    } else {
                        failed++;
                    }
                }
                if (proxy.firedTotal() == 0) {
                    break; // the offset lies beyond the whole exchange
                }
            }
        }
        System.err.println(kind + " sweep to offset " + offset + " by " + stride + ": " + failed + " failed transient, " + whole
            + " whole results, violations " + violations.size());
        if (!violations.isEmpty()) {
            fail(violations.size() + " of " + offset + " offsets broke the contract: "
                + String.join("\n", violations.subList(0, Math.min(20, violations.size()))));
        }
        assertTrue(failed > 0, "faults inside the exchange failed attempts");
        assertTrue(offset > 1_000, "the sweep covered request and response: " + offset);
    }

    private static ConnectionSpec spec(String url, String socketTimeout) {
        return new ConnectionSpec("clickhouse_twin", ConnectionType.CLICKHOUSE, url, TwinProcess.USER,
            Secret.of(TwinProcess.shared().password()), false, Map.of("socket_timeout", socketTimeout));
    }
}
