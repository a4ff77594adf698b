package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.retry.OperationKind;
import io.dpone.retry.RetryBudget;
import io.dpone.retry.TransientFaults;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A live reader that reads its batch again on a fresh source connection after a transient fault (issue 35), under
 * the tick's {@link RetryBudget} as {@code source_read}: a dropped TDS connection, a reset, a read beyond
 * {@code socket_timeout}. Reading a batch writes nothing and depends only on the offset it starts from, so a second
 * read returns the batch a first one would have (or a longer one, when the source moved on meanwhile); nothing was
 * applied or committed before it. A permanent failure (a refused statement, a capture instance that is gone, a
 * refused login) passes through at once. The readers of a multi-table stream share one {@link Session}: whichever
 * finds the connection broken replaces it, and each builds its reader again on the new one.
 */
final class ReconnectingCdcReader implements CdcSourceReader {
    private final Session session;
    private final Function<Connection, CdcSourceReader> factory;
    private final RetryBudget budget;
    private CdcSourceReader reader;
    private Connection readerConnection;

    ReconnectingCdcReader(Session session, Function<Connection, CdcSourceReader> factory, RetryBudget budget) {
        this.session = session;
        this.factory = factory;
        this.budget = budget;
    }

    @Override
    public CdcBatch readBatch(CdcOffset from, int maxEvents) {
        return budget.call(OperationKind.SOURCE_READ, () -> {
            Connection c = session.connection();
            try {
                return current(c).readBatch(from, maxEvents);
            } catch (RuntimeException e) {
                if (TransientFaults.isTransient(e)) {
                    session.broken(c);
                }
                throw e;
            }
        });
    }

    /**
     * The snapshot of a table added to a running stream (issue 31), read like a batch: again on a fresh connection
     * after a transient fault, under the budget as {@code source_read} (a snapshot read writes nothing either); null
     * when the backend's reader takes no snapshot (Change Tracking).
     */
    Function<CdcOffset, CdcBatch> snapshots() {
        if (!(current(session.connection()) instanceof io.dpone.cdc.mssql.SqlServerCdcReader)) {
            return null;
        }
        return at -> budget.call(OperationKind.SOURCE_READ, () -> {
            Connection c = session.connection();
            try {
                return ((io.dpone.cdc.mssql.SqlServerCdcReader) current(c)).snapshot(at);
            } catch (RuntimeException e) {
                if (TransientFaults.isTransient(e)) {
                    session.broken(c);
                }
                throw e;
            }
        });
    }

    /** Never a failure (the interface's contract): empty when the connection is gone. */
    @Override
    public OptionalLong millisBehindSource(CdcOffset committed, String highWatermark) {
        try {
            return current(session.connection()).millisBehindSource(committed, highWatermark);
        } catch (RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private synchronized CdcSourceReader current(Connection c) {
        if (reader == null || readerConnection != c) {
            reader = factory.apply(c);
            readerConnection = c;
        }
        return reader;
    }

    /**
     * The source connection of one tick: opened by {@code open} (the first when the tick is built), replaced after a
     * reader found it broken, closed when the tick ends.
     */
    static final class Session implements AutoCloseable {
        private final Supplier<Connection> open;
        private Connection current;

        Session(Connection first, Supplier<Connection> open) {
            this.current = first;
            this.open = open;
        }

        /** The connection to read on: the current one, or a fresh one after {@link #broken}. */
        synchronized Connection connection() {
            if (current == null) {
                current = open.get();
            }
            return current;
        }

        /** {@code c} broke: closed, and the next {@link #connection()} opens another (unless one already did). */
        synchronized void broken(Connection c) {
            if (current == c) {
                closeQuietly(c);
                current = null;
            }
        }

        @Override
        public synchronized void close() {
            if (current != null) {
                closeQuietly(current);
                current = null;
            }
        }

        private static void closeQuietly(Connection c) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing a read-only source connection has nothing to lose; a broken one may refuse
            }
        }
    }
}
