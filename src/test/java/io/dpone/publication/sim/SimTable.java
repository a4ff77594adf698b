package io.dpone.publication.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** One table on one simulated member. Replicated tables share a {@link Log}; a replica sees it after a sync. */
final class SimTable {
    final UUID uuid;
    final String engine;
    final String comment;
    final List<Long> rows = new ArrayList<>();
    final Set<String> tokens = new HashSet<>();
    final Log log;

    SimTable(UUID uuid, String engine, String comment, Log log) {
        this.uuid = uuid;
        this.engine = engine;
        this.comment = comment;
        this.log = log;
    }

    boolean replicated() {
        return log != null;
    }

    /** The shared replication log of one replicated table (same UUID on every replica). */
    static final class Log {
        final List<Long> rows = new ArrayList<>();
        final Set<String> tokens = new HashSet<>();
    }
}
