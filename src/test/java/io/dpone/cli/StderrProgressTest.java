package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The CLI's progress on stderr, on a clock the test moves: plain lines off a terminal, one live line on it. */
class StderrProgressTest {
    private static final long S = 1_000_000_000L;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong(1);

    private String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void offATerminalOnePlainLinePerIntervalWithTheEstimateAndTheTimeLeft() {
        StderrProgress p = new StderrProgress(err, false, Duration.ofSeconds(30), now::get);
        p.rowsExpected(5_000_000);
        p.rowsRead(0); // the clock starts at the first row
        now.addAndGet(10 * S);
        p.rowsRead(1_000_000);
        p.chunkDone(4);
        assertEquals("", text(), "a command shorter than the interval prints nothing");
        now.addAndGet(21 * S);
        p.rowsRead(3_100_000);
        assertEquals("progress: 3,100,000 of ~5,000,000 rows (62%), 4 chunks, 100,000 rows/s, 31.0 s elapsed, "
            + "about 19 s left\n", text());
        now.addAndGet(S);
        p.rowsRead(3_200_000);
        p.close();
        assertEquals(1, text().lines().count(), "the next line waits for the next interval; close adds nothing");
        assertTrue(!text().contains("\r") && !text().contains("\033"), "no control characters in a log");
    }

    @Test
    void onATerminalOneLiveLineRedrawnAtMostTwiceASecondAndClearedAtTheEnd() {
        StderrProgress p = new StderrProgress(err, true, Duration.ofSeconds(30), now::get, "route 2 of 7 demo_route");
        p.rowsRead(0);
        now.addAndGet(S / 4);
        p.rowsRead(10);
        assertEquals("", text());
        now.addAndGet(S);
        p.rowsRead(2_500);
        assertEquals("\r\033[K  route 2 of 7 demo_route: 2,500 rows, 0 chunks, 2,000 rows/s, 1.3 s elapsed", text());
        p.close();
        assertTrue(text().endsWith("\r\033[K"), "the live line is cleared before the report");
    }

    @Test
    void quietPrintsNothing() {
        StderrProgress p = new StderrProgress(err, false, null, now::get);
        for (int i = 0; i < 100; i++) {
            now.addAndGet(60 * S);
            p.rowsRead(i * 1000L);
        }
        p.close();
        assertEquals("", text());
    }
}
