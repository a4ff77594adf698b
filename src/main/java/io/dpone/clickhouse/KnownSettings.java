package io.dpone.clickhouse;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of some settings the connected ClickHouse knows and lets this user change: a {@code SETTINGS} clause naming
 * a setting the server does not have, or one a settings profile constrains to read-only, fails the whole statement,
 * so such a setting is added only where {@code system.settings} lists it as changeable ({@code readonly = 0}).
 */
public final class KnownSettings {
    private KnownSettings() {
    }

    public static Set<String> of(ClickHouseEndpoint ch, Collection<String> names) {
        if (names.isEmpty()) {
            return Set.of();
        }
        Set<String> known = new LinkedHashSet<>();
        ch.query("SELECT name FROM system.settings WHERE name IN (" + names.stream().map(ClickHouseSql::literal)
            .collect(Collectors.joining(", ")) + ") AND readonly = 0").forEach(r -> known.add(r.get(0)));
        return known;
    }
}
