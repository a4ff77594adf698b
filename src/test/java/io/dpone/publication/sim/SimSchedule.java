package io.dpone.publication.sim;

import io.dpone.error.Blocker;
import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * One seeded schedule: a world, two or three faults on top of a crash, and the resume loop with the same run id
 * until the operation is done and any zombie has woken. Everything derives from the seed, so {@link #describe()}
 * is enough to reproduce a failing schedule.
 */
final class SimSchedule {
    static final String RUN = "external-cluster-full-refresh-001";
    private static final Set<String> RETRYABLE = Set.of("publication.member_unreachable", "publication.ddl_pending",
        "publication.cleanup_incomplete");

    /** The faults a schedule draws from (the crash comes on top of them, in every schedule). */
    enum Fault { MEMBER_LOST, AMBIGUOUS_LOAD, DDL_TIMEOUT, EXECUTE_TWICE, EXPIRE_ENTRIES, LOST_AUTHORITY_ACK,
        OTHER_OPERATION, ZOMBIE }

    final long seed;
    final PublicationMode mode;
    final int members;
    final int rows;
    final boolean oldTarget;
    final EnumSet<Fault> faults = EnumSet.noneOf(Fault.class);
    /** The zombie pauses at its n-th point, or at its first point named so (a repair exchange in flight). */
    int pauseAt = -1;
    String pauseOn;
    final Set<String> fired = new TreeSet<>();
    /** Double execution plus an entry expired before it was read: the designed stop for the runbook. */
    boolean runbookStop;
    final SimWorld world;
    SimZombie zombie;
    private final Random r;
    private final int total;
    private final MemberId victim;

    private SimSchedule(long seed) {
        this.seed = seed;
        r = new Random(seed * 7919 + 13);
        mode = r.nextBoolean() ? PublicationMode.INTERNAL : PublicationMode.EXTERNAL;
        members = 2 + r.nextInt(2);
        rows = 1 + r.nextInt(25);
        oldTarget = r.nextInt(5) != 0;
        SimWorld clean = SimHarness.world(seed, members, mode, rows, oldTarget);
        if (!SimHarness.run(clean, RUN, mode, null).committed()) {
            throw new AssertionError("seed " + seed + ": the fault-free run did not commit");
        }
        total = clean.faults.count;
        world = SimHarness.world(seed, members, mode, rows, oldTarget);
        victim = world.memberIds.get(r.nextInt(members));
        if (r.nextInt(5) < 2) {
            faults.add(Fault.ZOMBIE);
            if (r.nextInt(3) == 0) {
                faults.add(Fault.EXECUTE_TWICE);
                pauseOn = "local exchange on";
            } else {
                pauseAt = 1 + r.nextInt(clean.faults.points);
            }
        }
        List<Fault> others = new ArrayList<>(EnumSet.complementOf(EnumSet.of(Fault.ZOMBIE)));
        Collections.shuffle(others, r);
        int wanted = 2 + r.nextInt(2);
        for (Fault f : others) {
            if (faults.size() < wanted) {
                faults.add(f);
            }
        }
    }

    static SimSchedule plan(long seed) {
        return new SimSchedule(seed);
    }

    String describe() {
        return "seed=" + seed + " mode=" + mode + " members=" + members + " rows=" + rows + " old_target=" + oldTarget
            + " faults=" + faults + " fired=" + fired()
            + (zombie == null ? "" : " zombie_paused_at=" + zombie.pausedAt + " zombie_end=" + zombieEnd())
            + " violations=" + world.violations
            + "\n  reproduce: ./mvnw -o test -Dtest=PublicationSimulationTest -Ddpone.sim.seed=" + seed;
    }

    private SimZombie wakeIfPaused(SimZombie z) {
        if (z != null && z.paused()) {
            z.wake();
            fired.add("zombie");
        }
        return z;
    }

    Set<String> fired() {
        Set<String> all = new TreeSet<>(fired);
        all.addAll(world.faults.fired);
        return all;
    }

    private String zombieEnd() {
        Object e = zombie.end;
        return e instanceof PublicationOutcome o ? (o.blockers().isEmpty() ? o.phase() : o.blockers().get(0).code())
            .toString() : String.valueOf(e);
    }

    /** Runs the schedule to its end; returns the last outcome of the new runner. */
    PublicationOutcome run() {
        SimWorld w = world;
        SimFaults f = w.faults;
        f.ambiguousLoad = faults.contains(Fault.AMBIGUOUS_LOAD) ? victim : null;
        f.ddlTimeout = faults.contains(Fault.DDL_TIMEOUT);
        f.executeTwice = faults.contains(Fault.EXECUTE_TWICE) ? victim : null;
        f.expireFinishedEntries = faults.contains(Fault.EXPIRE_ENTRIES);
        f.lostAuthorityAck = faults.contains(Fault.LOST_AUTHORITY_ACK);
        if (faults.contains(Fault.ZOMBIE)) {
            zombie = SimZombie.start(w, RUN, mode, pauseAt, pauseOn);
        }
        int base = f.count;
        if (faults.contains(Fault.MEMBER_LOST)) {
            f.unreachableAt = base + 1 + r.nextInt(total);
            f.unreachableMember = victim;
        }
        f.crashAt = base + 1 + r.nextInt(total + 1);
        int wakeAfter = r.nextInt(3);
        String op = SimHarness.operationId(RUN);
        boolean otherTried = false;
        PublicationOutcome last = null;
        for (int attempt = 0; attempt < 40; attempt++) {
            boolean done = false;
            try {
                last = SimHarness.run(w, RUN, mode, null);
                SimInvariants.checkTargets(w);
                done = last.committed() && last.cleanupComplete();
                for (Blocker b : done ? List.<Blocker>of() : last.blockers()) {
                    if (b.code().equals("publication.ddl_queue_entry_expired")
                        && f.fired.containsAll(Set.of("execute_twice", "expire_entries"))) {
                        runbookStop = true;
                    } else if (!RETRYABLE.contains(b.code())) {
                        throw new AssertionError("unexpected blocker " + b + "\n" + describe());
                    }
                }
                f.unreachable.clear();
            } catch (SimCrash crash) {
                fired.add("crash");
                SimInvariants.checkTargets(w);
                if (faults.contains(Fault.OTHER_OPERATION) && !otherTried) {
                    otherTried = true;
                    if (SimOtherOperation.assertFenced(w, mode, op)) {
                        fired.add("other_operation");
                    }
                }
                f.crashAt = r.nextInt(3) == 0 ? f.count + 1 + r.nextInt(total) : -1;
            }
            if (zombie != null && zombie.paused() && (attempt >= wakeAfter || done)) {
                zombie.wake();
                fired.add("zombie");
                SimInvariants.checkTargets(w);
                done = false;
            }
            if (runbookStop) {
                zombie = wakeIfPaused(zombie);
                SimInvariants.checkTargets(w);
                break;
            }
            if (done) {
                break;
            }
            w.elapse(Duration.ofSeconds(5 + r.nextInt(60)));
        }
        fired.addAll(f.fired);
        return last;
    }
}
