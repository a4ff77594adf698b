package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbc.JdbcConnection;

/**
 * Commit-time stamping of captured changes. The CDC and Change Tracking triggers run inside the writing
 * transaction and cannot know its commit LSN or version, so they write their rows with the session's provisional
 * marker ({@link Pending#marker}); {@link #commit} then takes the database's commit lock, allocates one LSN (CDC)
 * and one version (Change Tracking) for the whole transaction, replaces the marker, writes
 * {@code cdc.lsn_time_mapping} / {@code sys.dm_tran_commit_table}, and commits. A rollback discards the rows with
 * the transaction. Triggers find their session's {@link Pending} through the H2 session object both connections
 * share.
 */
final class Capture {
    private static final Map<Object, Pending> BY_SESSION = new ConcurrentHashMap<>();
    private static final AtomicLong MARKERS = new AtomicLong(1);

    /** One session's uncommitted capture state. */
    static final class Pending {
        final long marker = MARKERS.getAndIncrement();
        final Set<String> cdcTables = new LinkedHashSet<>();
        final Set<String> ctLogs = new LinkedHashSet<>();
        int commandId;

        void reset() {
            cdcTables.clear();
            ctLogs.clear();
            commandId = 0;
        }

        /** The provisional {@code __$start_lsn}: above every real LSN, unique per session. */
        byte[] markerLsn() {
            byte[] b = lsn(marker);
            b[0] = (byte) 0xFF;
            return b;
        }
    }

    private Capture() {
    }

    static Pending register(Connection h2) throws SQLException {
        Pending p = new Pending();
        BY_SESSION.put(key(h2), p);
        return p;
    }

    static void unregister(Connection h2) {
        try {
            BY_SESSION.remove(key(h2));
        } catch (SQLException ignored) {
            // closed
        }
    }

    /** The pending state of the session {@code triggerConnection} belongs to; null for a plain H2 connection. */
    static Pending of(Connection triggerConnection) throws SQLException {
        return BY_SESSION.get(key(triggerConnection));
    }

    private static Object key(Connection c) throws SQLException {
        return c.unwrap(JdbcConnection.class).getSession();
    }

    /** SQL Server's LSN layout (VLF:block:slot, 4+4+2 bytes) for counter {@code n}: byte order is numeric order. */
    static byte[] lsn(long n) {
        byte[] b = new byte[10];
        b[3] = 0x2A;
        for (int i = 0; i < 4; i++) {
            b[7 - i] = (byte) (n >>> (8 * i));
        }
        b[8] = (byte) (n >>> 32);
        b[9] = 1;
        return b;
    }

    static long next(Connection c, String sequence) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT NEXT VALUE FOR twin_catalog." + sequence);
             ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static void commit(TwinDatabase db, Connection h2, Pending p) throws SQLException {
        if (p.cdcTables.isEmpty() && p.ctLogs.isEmpty()) {
            h2.commit();
            p.reset();
            return;
        }
        db.commitLock.lock();
        try {
            Timestamp now = new Timestamp(System.currentTimeMillis());
            if (!p.cdcTables.isEmpty()) {
                byte[] lsn = lsn(next(h2, "lsn_seq"));
                for (String table : p.cdcTables) {
                    try (PreparedStatement st = h2.prepareStatement("UPDATE " + table + " SET \"__$start_lsn\" = ? "
                        + "WHERE \"__$start_lsn\" = ?")) {
                        st.setBytes(1, lsn);
                        st.setBytes(2, p.markerLsn());
                        st.executeUpdate();
                    }
                }
                try (PreparedStatement st = h2.prepareStatement("INSERT INTO cdc.lsn_time_mapping (start_lsn, "
                    + "tran_begin_time, tran_end_time, tran_id, tran_begin_lsn) VALUES (?, ?, ?, ?, ?)")) {
                    st.setBytes(1, lsn);
                    st.setTimestamp(2, now);
                    st.setTimestamp(3, now);
                    st.setBytes(4, java.util.Arrays.copyOf(lsn, 10));
                    st.setBytes(5, lsn);
                    st.executeUpdate();
                }
            }
            if (!p.ctLogs.isEmpty()) {
                long version = next(h2, "ct_version_seq");
                for (String log : p.ctLogs) {
                    try (PreparedStatement st = h2.prepareStatement("UPDATE " + log + " SET version = ?, marker = NULL "
                        + "WHERE marker = ?")) {
                        st.setLong(1, version);
                        st.setLong(2, p.marker);
                        st.executeUpdate();
                    }
                }
                try (PreparedStatement st = h2.prepareStatement("INSERT INTO sys.dm_tran_commit_table (commit_ts, "
                    + "xdes_id, commit_lsn, commit_csn, commit_time) VALUES (?, ?, ?, ?, ?)")) {
                    st.setLong(1, version);
                    st.setLong(2, p.marker);
                    st.setLong(3, version);
                    st.setLong(4, version);
                    st.setTimestamp(5, now);
                    st.executeUpdate();
                }
            }
            h2.commit();
        } finally {
            p.reset();
            db.commitLock.unlock();
        }
    }
}
