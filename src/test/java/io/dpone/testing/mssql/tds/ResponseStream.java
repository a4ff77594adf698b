package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.ResultColumn;
import io.dpone.testing.mssql.engine.Results;
import io.dpone.testing.mssql.engine.SqlServerError;
import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The token stream of one response, as {@link Results}: COLMETADATA, ROW (or NBCROW when a row holds a NULL, as
 * SQL Server chooses it), and a DONE per statement (DONEINPROC inside an RPC) whose DONE_MORE bit is settled when the
 * next token or the end of the response comes. Polls for the client's attention every few rows.
 */
final class ResponseStream implements Results {
    /** Thrown when the fault asks the connection to drop in the middle of a result. */
    static final class DropConnection extends IOException {
        DropConnection() {
            super("fault: connection dropped");
        }
    }

    private final TdsWriter w;
    private final boolean inProc;
    private final BooleanSupplier attention;
    private List<ResultColumn> columns;
    private boolean pending;
    private int pendingStatus;
    private int pendingCommand;
    private long pendingCount;
    private boolean cancelled;
    private long rowsSinceColumns;
    private final WireFaults faults;
    private int polls;

    ResponseStream(TdsWriter w, boolean inProc, BooleanSupplier attention, WireFaults faults) {
        this.w = w;
        this.inProc = inProc;
        this.attention = attention;
        this.faults = faults;
    }

    @Override
    public void columns(List<ResultColumn> cols) throws IOException {
        flushPending(true);
        this.columns = cols;
        this.rowsSinceColumns = 0;
        w.u8(Tokens.COLMETADATA);
        w.u16(cols.size());
        for (ResultColumn c : cols) {
            // user type: SQL Server marks a timestamp (rowversion) column with 0x0050; mssql-jdbc reads it as timestamp
            w.i32(c.type().kind() == io.dpone.testing.mssql.engine.SqlType.Kind.ROWVERSION ? 0x0050 : 0);
            w.u16((c.nullable() ? 0x01 : 0) | 0x08); // fNullable, fUpdateable unknown
            ColumnEncoder.typeInfo(w, c.type(), c.nullable(), null);
            w.bVarchar(c.name());
        }
    }

    @Override
    public void row(Object[] values) throws IOException {
        if (columns == null) {
            throw new IllegalStateException("a row before its columns");
        }
        int drop = faults.dropAfterRows();
        if (drop >= 0 && rowsSinceColumns >= drop && faults.takeDropAfterRows() >= 0) {
            w.flushPartial(); // the rows before the drop reach the client, as from a server that dies mid-result
            throw new DropConnection();
        }
        boolean anyNull = false;
        for (Object v : values) {
            anyNull |= v == null;
        }
        if (anyNull) {
            w.u8(Tokens.NBCROW);
            byte[] bitmap = new byte[(values.length + 7) / 8];
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    bitmap[i / 8] |= (byte) (1 << (i % 8));
                }
            }
            w.bytes(bitmap);
            for (int i = 0; i < values.length; i++) {
                if (values[i] != null) {
                    ColumnEncoder.value(w, columns.get(i).type(), columns.get(i).nullable(), values[i]);
                }
            }
        } else {
            w.u8(Tokens.ROW);
            for (int i = 0; i < values.length; i++) {
                ColumnEncoder.value(w, columns.get(i).type(), columns.get(i).nullable(), values[i]);
            }
        }
        rowsSinceColumns++;
    }

    @Override
    public void done(long count) throws IOException {
        flushPending(true);
        pending = true;
        pendingCommand = columns != null ? Tokens.CMD_SELECT : count >= 0 ? Tokens.CMD_UPDATE : 0;
        pendingStatus = count >= 0 ? Tokens.DONE_COUNT : 0;
        pendingCount = Math.max(count, 0);
        columns = null;
    }

    @Override
    public void info(int number, String message) throws IOException {
        flushPending(true);
        Tokens.message(w, Tokens.INFO, number, 1, 0, message);
    }

    @Override
    public boolean cancelled() {
        if (!cancelled && (++polls & 0xFF) == 0) {
            cancelled = attention.getAsBoolean();
        }
        return cancelled;
    }

    /** Whether an attention ended this response (its last DONE carries DONE_ATTN instead). */
    boolean wasCancelled() {
        return cancelled;
    }

    /** An ERROR token for a failed statement, then its DONE with the error bit. */
    void error(SqlServerError e) throws IOException {
        flushPending(true);
        columns = null;
        Tokens.message(w, Tokens.ERROR, e.number(), e.state(), e.severity(), e.getMessage());
        pending = true;
        pendingStatus = Tokens.DONE_ERROR;
        pendingCommand = 0;
        pendingCount = 0;
    }

    /** Ends the statements part: the last DONE(INPROC) with DONE_MORE only when {@code more}. */
    void endStatements(boolean more) throws IOException {
        flushPending(more);
    }

    private void flushPending(boolean more) throws IOException {
        if (!pending) {
            return;
        }
        pending = false;
        Tokens.done(w, inProc ? Tokens.DONEINPROC : Tokens.DONE, pendingStatus | (more ? Tokens.DONE_MORE : 0),
            pendingCommand, pendingCount);
    }

    boolean hasPending() {
        return pending;
    }
}
