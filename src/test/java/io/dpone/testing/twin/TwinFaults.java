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
 * worker taking entries (a host whose DDL worker is stuck) until {@code ddl_stall=0} or a restart.
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
        if (params.containsKey("clear")) {
            ddlHalt = null;
            ddlStalled = false;
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

    /** True when the DDL worker is to halt the process at {@code when} ({@code before_finished}, {@code after_finished}). */
    boolean ddlHalt(String when) {
        return when.equals(ddlHalt);
    }

    boolean ddlStalled() {
        return ddlStalled;
    }

    void delay() throws InterruptedException {
        if (delayTimes.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            Thread.sleep(delayMillis); // the slow server a delay fault asks for
        }
    }
}
