package io.dpone.testing.twin;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Faults a test asks the twin for (over {@code POST /twin/faults?...}): fail the Nth data insert from now (its rows
 * read, nothing inserted, a 500 with a server error; {@code message} sets its text), answer the next K requests with an HTTP status and no
 * ClickHouse error (as a proxy in front of a server does), or delay the next K requests. {@code ddl_halt=before_finished}
 * (or {@code after_finished}) makes the twin's DDL worker halt the process, as a crash does, right after the next
 * queue entry it executes, before (or after) it records the entry finished: restarted, a twin halted before
 * recording runs that entry a second time, as a ClickHouse host does after a restart. {@code ddl_stall=1} stops the
 * worker taking entries (a host whose DDL worker is stuck) until {@code ddl_stall=0} or a restart. With
 * {@code ddl_on=PREFIX} both apply only from the first entry whose statement starts with {@code PREFIX}
 * (case-insensitive: {@code ddl_on=EXCHANGE} leaves the creates before the exchange alone).
 * {@code replication_stall=1} stops the twin's replication worker applying blocks (a replica whose queue is stuck)
 * until {@code replication_stall=0} or a restart; {@code replication_halt=after_apply} halts the process right after
 * the worker inserts the next fetched block, before it advances its log pointer.
 */
final class TwinFaults {
    private final AtomicInteger insertsUntilFailure = new AtomicInteger(-1);
    private final AtomicInteger statusTimes = new AtomicInteger();
    private volatile int status;
    private final AtomicInteger delayTimes = new AtomicInteger();
    private volatile long delayMillis;
    private volatile String insertMessage;
    private volatile String ddlHalt;
    private volatile boolean ddlStalled;
    private volatile String ddlOn;
    private volatile boolean replicationStalled;
    private volatile boolean replicationHalt;

    void configure(Map<String, String> params) {
        if (params.containsKey("fail_insert")) {
            insertsUntilFailure.set(Integer.parseInt(params.get("fail_insert")));
            insertMessage = params.get("message"); // what the failed insert's error says (null: the default)
        }
        if (params.containsKey("http_status")) {
            status = Integer.parseInt(params.get("http_status"));
            statusTimes.set(Integer.parseInt(params.getOrDefault("times", "1")));
        }
        if (params.containsKey("delay_ms")) {
            delayMillis = Long.parseLong(params.get("delay_ms"));
            delayTimes.set(Integer.parseInt(params.getOrDefault("times", "1")));
        }
        if (params.containsKey("ddl_halt")) {
            String when = params.get("ddl_halt");
            if (!when.equals("before_finished") && !when.equals("after_finished")) {
                throw new IllegalArgumentException("ddl_halt is before_finished or after_finished");
            }
            ddlHalt = when;
        }
        if (params.containsKey("ddl_stall")) {
            ddlStalled = "1".equals(params.get("ddl_stall"));
        }
        if (params.containsKey("ddl_on")) {
            ddlOn = params.get("ddl_on").isEmpty() ? null : params.get("ddl_on");
        }
        if (params.containsKey("replication_stall")) {
            replicationStalled = "1".equals(params.get("replication_stall"));
        }
        if (params.containsKey("replication_halt")) {
            if (!params.get("replication_halt").equals("after_apply")) {
                throw new IllegalArgumentException("replication_halt is after_apply");
            }
            replicationHalt = true;
        }
        if (params.containsKey("clear")) {
            ddlHalt = null;
            ddlStalled = false;
            ddlOn = null;
            replicationStalled = false;
            replicationHalt = false;
            insertsUntilFailure.set(-1);
            statusTimes.set(0);
            delayTimes.set(0);
        }
    }

    /** True when this data insert is the one to fail. */
    boolean failThisInsert() {
        return insertsUntilFailure.get() > 0 && insertsUntilFailure.decrementAndGet() == 0;
    }

    /** The text of the failed insert's server error: the test's, or the default. */
    String insertFailure() {
        String m = insertMessage;
        return "Code: 241. DB::Exception: " + (m == null ? "twin: injected failure of this insert" : m)
            + ". (MEMORY_LIMIT_EXCEEDED)";
    }

    /** The status to answer this request with instead of running it, or 0. */
    int injectedStatus() {
        return statusTimes.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? status : 0;
    }

    /**
     * True when the DDL worker is to halt the process at {@code when} ({@code before_finished}, {@code after_finished})
     * of the entry whose statement is {@code query}.
     */
    boolean ddlHalt(String when, String query) {
        return when.equals(ddlHalt) && matches(query);
    }

    /** True when the DDL worker is not to take the entry whose statement is {@code query}. */
    boolean ddlStalled(String query) {
        return ddlStalled && matches(query);
    }

    private boolean matches(String query) {
        String prefix = ddlOn;
        return prefix == null || query.stripLeading().regionMatches(true, 0, prefix, 0, prefix.length());
    }

    boolean replicationStalled() {
        return replicationStalled;
    }

    /** True when the replication worker is to halt the process now, after applying a block. */
    boolean replicationHalt() {
        return replicationHalt;
    }

    void delay() throws InterruptedException {
        if (delayTimes.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            Thread.sleep(delayMillis); // the slow server a delay fault asks for
        }
    }
}
