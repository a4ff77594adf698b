package io.dpone.publication.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Counts what the seeded schedules planned and what actually fired, and holds the suite to its coverage. */
final class SimDistribution {
    private static final Map<Long, SimSchedule> RAN = new ConcurrentHashMap<>();

    private SimDistribution() {
    }

    static void record(SimSchedule s) {
        RAN.put(s.seed, s);
    }

    /** Only when every seed ran (a single-seed reproduction skips it). */
    static void assertAndWrite(int schedules) throws IOException {
        if (RAN.size() != schedules) {
            return;
        }
        Map<String, Integer> planned = new TreeMap<>();
        Map<String, Integer> fired = new TreeMap<>();
        Map<Integer, Integer> firedPerSchedule = new TreeMap<>();
        int twoPlanned = 0;
        int twoFired = 0;
        int zombieFenced = 0;
        int lateExchange = 0;
        int runbookStops = 0;
        int lateCreateLeftovers = 0;
        Map<String, Integer> pauses = new TreeMap<>();
        for (SimSchedule s : RAN.values()) {
            s.faults.forEach(f -> planned.merge(f.name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum));
            s.fired.forEach(f -> fired.merge(f, 1, Integer::sum));
            long n = s.fired.stream().filter(f -> !f.equals("crash")).count();
            firedPerSchedule.merge((int) n, 1, Integer::sum);
            twoPlanned += s.faults.size() >= 2 ? 1 : 0;
            twoFired += n >= 2 ? 1 : 0;
            runbookStops += s.runbookStop ? 1 : 0;
            lateCreateLeftovers += s.world.tables.values().stream().anyMatch(t -> t.keySet().stream()
                .anyMatch(k -> k.contains("__dpone_"))) && !s.runbookStop ? 1 : 0;
            if (s.fired.contains("zombie")) {
                pauses.merge(s.zombie.pausedAt.replaceAll(" on m-[0-9a-f]+", "").replace("authority read",
                    "authority read (before its next step)"), 1, Integer::sum);
                zombieFenced += s.zombie.fenceMovedAtWake() ? 1 : 0;
                lateExchange += s.zombie.pausedAt.startsWith("local exchange") ? 1 : 0;
            }
        }
        String report = "schedules " + RAN.size() + "\nplanned (schedules per fault) " + planned
            + "\nfired (schedules per fault) " + fired + "\nfaults fired per schedule, crash aside " + firedPerSchedule
            + "\nschedules with >= 2 faults planned " + twoPlanned + ", fired " + twoFired
            + "\nzombies woken after a new runner took the fence " + zombieFenced
            + ", of them with a repair exchange in flight " + lateExchange
            + "\nzombie pause points " + pauses
            + "\nschedules stopped by design for the runbook (double execution + expired entry) " + runbookStops
            + "\nschedules ending with an empty owned table from a late CREATE " + lateCreateLeftovers + "\n";
        Files.createDirectories(Path.of("target/sim"));
        Files.writeString(Path.of("target/sim/distribution.txt"), report);
        System.out.print(report);
        assertTrue(twoPlanned == schedules, report);
        assertTrue(twoFired >= schedules / 2, report);
        assertTrue(zombieFenced >= schedules / 4, report);
        assertTrue(lateExchange >= 20, report);
        for (String f : Set.of("crash", "member_lost", "ambiguous_load", "ddl_timeout", "execute_twice",
            "expire_entries", "lost_authority_ack", "other_operation", "zombie")) {
            assertTrue(fired.getOrDefault(f, 0) >= schedules / 20, f + " fired too rarely\n" + report);
        }
    }
}
