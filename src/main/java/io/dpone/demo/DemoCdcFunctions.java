package io.dpone.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/** The {@code sys.fn_cdc_*} functions of the demo's CDC emulation ({@link DemoCdc}), bound as H2 aliases. */
public final class DemoCdcFunctions {
    private DemoCdcFunctions() {
    }

    /** {@code sys.fn_cdc_get_max_lsn()}: the highest committed LSN, NULL before any. */
    public static byte[] maxLsn(Connection c) throws SQLException {
        return bytes(c, "SELECT MAX(start_lsn) FROM cdc.lsn_time_mapping", null);
    }

    /** {@code sys.fn_cdc_get_min_lsn(ci)}: the capture instance's low watermark, 0x00..00 when it does not exist. */
    public static byte[] minLsn(Connection c, String captureInstance) throws SQLException {
        byte[] b = bytes(c, "SELECT start_lsn FROM cdc.change_tables WHERE capture_instance = ?", captureInstance);
        return b == null ? new byte[10] : b;
    }

    /** {@code sys.fn_cdc_map_lsn_to_time(lsn)}: the commit time of the transaction at {@code lsn}. */
    public static Timestamp mapLsnToTime(Connection c, byte[] lsn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT MAX(tran_end_time) FROM cdc.lsn_time_mapping "
            + "WHERE start_lsn = ?")) {
            ps.setBytes(1, lsn);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getTimestamp(1) : null;
            }
        }
    }

    private static byte[] bytes(Connection c, String sql, String parameter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (parameter != null) {
                ps.setString(1, parameter);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }
    }
}
