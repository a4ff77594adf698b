package io.dpone.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * SQL Server's permission functions on the H2 emulations of a CDC or Change Tracking source (the demo's
 * {@link DemoCdc} and the tests' fixtures), bound as H2 aliases over H2's own users, roles and rights, so that the
 * promotion bundle's {@code source_permissions} check runs on the embedded default as on SQL Server:
 * <ul>
 *   <li>{@code HAS_PERMS_BY_NAME(securable, 'OBJECT', permission)}: 1 when the calling user may read the table
 *       ({@code SELECT ... WHERE 1 = 0} as that user succeeds), 0 when H2 refuses it for want of rights, NULL when
 *       the table does not exist or the class is not {@code OBJECT}. {@code VIEW CHANGE TRACKING}, which H2 has no
 *       right for, is held as {@code SELECT} is;</li>
 *   <li>{@code IS_ROLEMEMBER(role)}: 1 for an admin and for a user granted the role, 0 for another user (H2 shows
 *       such a user only the roles granted to it; {@code db_owner}, which H2 has no role for, is an admin's).</li>
 * </ul>
 * Only for H2: SQL Server has these functions built in.
 */
public final class DemoPermissions {
    /** H2's error "Not enough rights for object". */
    private static final int NOT_ENOUGH_RIGHTS = 90096;

    private DemoPermissions() {
    }

    /** Binds the functions on the emulation (idempotent). */
    public static void install(Statement st) throws SQLException {
        String cls = DemoPermissions.class.getName();
        st.execute("CREATE ALIAS IF NOT EXISTS HAS_PERMS_BY_NAME FOR \"" + cls + ".hasPermsByName\"");
        st.execute("CREATE ALIAS IF NOT EXISTS IS_ROLEMEMBER FOR \"" + cls + ".isRoleMember\"");
    }

    /** {@code HAS_PERMS_BY_NAME(securable, class, permission)} for the calling user (see the class comment). */
    public static Integer hasPermsByName(Connection c, String securable, String securableClass, String permission)
        throws SQLException {
        if (securable == null || !"OBJECT".equalsIgnoreCase(securableClass) || permission == null) {
            return null;
        }
        String[] parts = securable.split("\\.", 2);
        String schema = parts.length == 2 ? unquote(parts[0]) : "dbo";
        String table = unquote(parts[parts.length - 1]);
        if (!schema.matches("\\w+") || !table.matches("[\\w$]+")) {
            return null;
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1 FROM \"" + schema + "\".\"" + table + "\" WHERE 1 = 0")) {
            return 1;
        } catch (SQLException e) {
            if (e.getErrorCode() == NOT_ENOUGH_RIGHTS) {
                return 0;
            }
            return null;
        }
    }

    /** {@code IS_ROLEMEMBER(role)} for the calling user (see the class comment). */
    public static Integer isRoleMember(Connection c, String role) throws SQLException {
        if (role == null) {
            return null;
        }
        if (admin(c)) {
            return 1;
        }
        // H2 shows a user who is not an admin only the roles granted to it
        return count(c, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.ROLES WHERE UPPER(ROLE_NAME) = ?", role) > 0 ? 1 : 0;
    }

    private static boolean admin(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT IS_ADMIN FROM "
            + "INFORMATION_SCHEMA.USERS WHERE UPPER(USER_NAME) = UPPER(CURRENT_USER)")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    private static long count(Connection c, String sql, String role) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, role.toUpperCase(Locale.ROOT));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private static String unquote(String part) {
        String p = part.strip();
        if ((p.startsWith("[") && p.endsWith("]")) || (p.startsWith("\"") && p.endsWith("\""))) {
            p = p.substring(1, p.length() - 1);
        }
        return p;
    }
}
