package io.dpone.clickhouse;

import java.util.Collection;
import java.util.Set;

/**
 * Which of some settings the connected ClickHouse knows and lets this user change: a {@code SETTINGS} clause naming
 * a setting the server does not have, or one a settings profile constrains to read-only, fails the whole statement,
 * so such a setting is added only where {@code system.settings} lists it as changeable ({@code readonly = 0}).
 */
public final class KnownSettings {
    private KnownSettings() {
    }

    public static Set<String> of(ClickHouseEndpoint ch, Collection<String> names) {
        return ch.operations().changeableSettings(names);
    }
}
