package io.dpone.clickhouse;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's facts: which settings this user may change, server settings' values, the user's grants, a round trip.
 * One role of {@link ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only
 * this role takes it.
 */
public interface ServerFacts {

    /** Which of {@code names} the server knows and lets this user change ({@code system.settings}, readonly = 0). */
    Set<String> changeableSettings(Collection<String> names);

    /** The values of those of {@code names} that {@code system.server_settings} lists, as the server prints them. */
    Map<String, String> serverSettings(Collection<String> names);

    /** The lines of {@code SHOW GRANTS} for the connected user ({@code GRANT SELECT, INSERT ON db.* TO user}). */
    List<String> grants();

    /** A round trip that reads nothing ({@code SELECT 1}): the endpoint answers. */
    void ping();
}
