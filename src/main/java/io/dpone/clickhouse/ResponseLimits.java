package io.dpone.clickhouse;

import io.dpone.connect.ConnectionSpec;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ShortDuration;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bounds of one ClickHouse server alias's responses besides the socket timeout (which only bounds silence):
 * a deadline for the whole response ({@code options.response_timeout}, default socket timeout + 5 minutes), the
 * bytes one result may hold ({@code options.max_response_bytes}, default 1 GiB) and the size of the response head
 * ({@link #MAX_HEADER_LINE} characters a line, {@link #MAX_HEADERS} header lines). A server that drips a byte every
 * few seconds, sends an endless body or endless headers is cut off by one of them (docs/connections.md, "Timeouts").
 */
record ResponseLimits(Duration responseTimeout, long maxResponseBytes) {
    static final int MAX_HEADER_LINE = 8 * 1024;
    static final int MAX_HEADERS = 100;
    static final Duration DEADLINE_MARGIN = Duration.ofMinutes(5);
    static final long DEFAULT_MAX_RESPONSE_BYTES = 1L << 30;
    private static final Pattern SIZE = Pattern.compile("^(\\d{1,15})\\s*(|b|kib|mib|gib)$");
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    static ResponseLimits of(ConnectionSpec spec, Duration socketTimeout) {
        Duration deadline = socketTimeout.plus(DEADLINE_MARGIN);
        String t = spec.option("response_timeout", null);
        if (t != null) {
            deadline = ShortDuration.parse(t.trim()).filter(d -> !d.isZero()).orElseThrow(() -> invalid(spec,
                "options.response_timeout must be a duration such as 30s or 10m"));
        }
        long bytes = DEFAULT_MAX_RESPONSE_BYTES;
        String b = spec.option("max_response_bytes", null);
        if (b != null) {
            bytes = bytes(b).orElseThrow(() -> invalid(spec,
                "options.max_response_bytes must be a size such as 1048576, 64MiB or 1GiB"));
        }
        return new ResponseLimits(deadline, bytes);
    }

    static java.util.OptionalLong bytes(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return java.util.OptionalLong.empty();
        }
        long n = Long.parseLong(m.group(1));
        int shift = switch (m.group(2)) {
            case "kib" -> 10;
            case "mib" -> 20;
            case "gib" -> 30;
            default -> 0;
        };
        if (n == 0 || n > (Long.MAX_VALUE >> shift)) {
            return java.util.OptionalLong.empty();
        }
        return java.util.OptionalLong.of(n << shift);
    }

    private static DponeException invalid(ConnectionSpec spec, String what) {
        return new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID, spec.alias(),
            "ClickHouse connection '" + spec.alias() + "' " + what);
    }

    /** Runs {@code onExpiry} once when the response deadline passes, unless the returned handle is closed first. */
    Deadline start(Runnable onExpiry) {
        Deadline d = new Deadline();
        d.future = TIMER.schedule(() -> {
            d.expired = true;
            onExpiry.run();
        }, responseTimeout.toMillis(), TimeUnit.MILLISECONDS);
        return d;
    }

    /** A running deadline; closing it before expiry cancels it. */
    static final class Deadline implements AutoCloseable {
        private volatile ScheduledFuture<?> future;
        private volatile boolean expired;

        boolean expired() {
            return expired;
        }

        @Override
        public void close() {
            future.cancel(false);
        }
    }

    /** {@code in}, refusing to read past {@link #maxResponseBytes}. */
    InputStream bounded(InputStream in) {
        return new FilterInputStream(in) {
            private long read;

            @Override
            public int read() throws IOException {
                int c = super.read();
                if (c >= 0) {
                    count(1);
                }
                return c;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    count(n);
                }
                return n;
            }

            private void count(long n) throws IOException {
                read += n;
                if (read > maxResponseBytes) {
                    throw new TooLarge();
                }
            }
        };
    }

    /** The result was larger than {@code max_response_bytes}. */
    static final class TooLarge extends IOException {
        TooLarge() {
            super("response larger than max_response_bytes");
        }
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "dpone-clickhouse-deadline");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        return t;
    }
}
