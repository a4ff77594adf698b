package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the connected ClickHouse user may do in a database, asked with {@code CHECK GRANT privilege ON db.*}: the
 * server answers from the user's effective privileges, its roles' included, without the {@code SHOW USERS} privilege
 * {@code system.grants} needs. The CDC promotion bundle's {@code sink_privileges} check asks it for the log and
 * offset databases.
 */
public final class SinkGrants {
    /** A privilege as ClickHouse names it, words of capitals ({@code CREATE TABLE}, {@code ALTER ADD COLUMN}). */
    private static final Pattern PRIVILEGE = Pattern.compile("[A-Z]+( [A-Z]+)*");

    /** How a ClickHouse older than {@code CHECK GRANT} refuses it: a syntax error, or a statement it lacks. */
    private static final Pattern UNKNOWN_STATEMENT = Pattern.compile(
        "\\b(SYNTAX_ERROR|NOT_IMPLEMENTED|UNSUPPORTED_METHOD)\\b|Code: (62|48|1)\\.");

    private final ClickHouseEndpoint ch;

    public SinkGrants(ClickHouseEndpoint ch) {
        this.ch = ch;
    }

    /**
     * Whether the connected user holds {@code privilege} on every table of {@code database}; empty when the server
     * does not know {@code CHECK GRANT} (a ClickHouse older than the statement: a syntax error). Any other failure
     * (a refusal of another kind, a transport fault) is thrown, so the check fails rather than being skipped.
     */
    public Optional<Boolean> granted(String privilege, String database) {
        if (!PRIVILEGE.matcher(privilege).matches()) {
            throw new IllegalArgumentException("not a privilege name");
        }
        List<List<String>> rows;
        try {
            rows = ch.query("CHECK GRANT " + privilege + " ON " + ClickHouseSql.id(database) + ".*");
        } catch (io.dpone.clickhouse.ClickHouseQueryException e) {
            if (UNKNOWN_STATEMENT.matcher(String.valueOf(e.getMessage())).find()) {
                return Optional.empty();
            }
            throw e; // a refusal of another kind, or a fault on the way: the caller reports it, never a skip
        }
        if (rows.isEmpty() || rows.get(0).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("1".equals(rows.get(0).get(0)));
    }
}
