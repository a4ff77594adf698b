package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.h2.api.Trigger;

/**
 * What SQL Server does to a row's values as it stores them, before every insert and update of a table with such a
 * column. {@code rowversion} ({@code timestamp}): each gets the database's next value ({@code @@DBTS + 1}, from
 * {@code twin_catalog.dbts_seq}), big-endian in 8 bytes; the counter is database-wide and never rolled back, as on
 * SQL Server; a client never writes it ({@link Inserts} refuses an INSERT naming the column, error 273). {@code xml}:
 * the text is parsed and kept as SQL Server re-serialises it ({@link XmlText}).
 */
public final class BeforeWriteTrigger implements Trigger {
    private String schema;
    private String table;
    private long loadedAt = -1;
    private int[] positions = new int[0];
    private int[] xml = new int[0];

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
                     int type) {
        this.schema = schemaName;
        this.table = tableName;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        if (newRow == null) {
            return;
        }
        load(conn);
        for (int p : positions) {
            newRow[p] = bytes(Capture.next(conn, "dbts_seq"));
        }
        for (int p : xml) {
            Object v = newRow[p];
            if (v != null) {
                String text = v instanceof java.sql.Clob c ? c.getSubString(1, (int) c.length()) : v.toString();
                newRow[p] = XmlText.normalise(text);
            }
        }
    }

    /** A rowversion value: the counter, big-endian. */
    static byte[] bytes(long n) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[7 - i] = (byte) (n >>> (8 * i));
        }
        return b;
    }

    private synchronized void load(Connection conn) throws SQLException {
        long version = TwinCatalog.VERSION.get();
        if (version == loadedAt) {
            return;
        }
        List<String> columns = Metadata.columnNames(conn, schema, table);
        List<Integer> found = new ArrayList<>();
        List<Integer> documents = new ArrayList<>();
        for (TwinCatalog.Column c : TwinCatalog.columns(conn, schema, table).values()) {
            if (c.type().kind() == SqlType.Kind.ROWVERSION) {
                found.add(columns.indexOf(c.name().toLowerCase(Locale.ROOT)));
            } else if (c.type().kind() == SqlType.Kind.XML) {
                documents.add(columns.indexOf(c.name().toLowerCase(Locale.ROOT)));
            }
        }
        positions = found.stream().mapToInt(Integer::intValue).toArray();
        xml = documents.stream().mapToInt(Integer::intValue).toArray();
        loadedAt = version;
    }
}
