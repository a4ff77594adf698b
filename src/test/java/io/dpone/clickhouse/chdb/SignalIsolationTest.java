package io.dpone.clickhouse.chdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine cannot change a signal disposition: its calls to {@code sigaction} and {@code signal} go to stubs that
 * only report the current disposition, and every connect leaves the JVM's handlers exactly as they were.
 */
@io.dpone.testing.EngineTest
class SignalIsolationTest {
    private static final int SIGSEGV = 11;
    private static final int SIGHUP = 1;

    @Test
    void everySigactionAndSignalSlotOfTheLibraryPointsAtTheStubs() {
        Path lib = ChdbInstaller.forUserCache().ensureInstalled().toAbsolutePath();
        TestEngines.clickHousePath(); // the library is loaded and isolated
        ElfImports imports = ElfImports.read(lib);
        NativeLibrary image = NativeLibrary.getInstance(lib.toString());
        long base = Pointer.nativeValue(image.getFunction("chdb_connect")) - imports.symbolValue("chdb_connect");
        long realSigaction = Pointer.nativeValue(NativeLibrary.getInstance("c").getFunction("sigaction"));
        long realSignal = Pointer.nativeValue(NativeLibrary.getInstance("c").getFunction("signal"));
        List<Long> sigactionSlots = imports.slotsOf("sigaction");
        List<Long> signalSlots = imports.slotsOf("signal");
        assertFalse(sigactionSlots.isEmpty(), "libchdb.so imports sigaction");
        long stub = SignalIsolation.slotTarget(base + sigactionSlots.get(0));
        for (long slot : sigactionSlots) {
            long target = SignalIsolation.slotTarget(base + slot);
            assertNotEquals(realSigaction, target, "slot still calls libc's sigaction");
            assertEquals(stub, target);
        }
        for (long slot : signalSlots) {
            long target = SignalIsolation.slotTarget(base + slot);
            assertNotEquals(realSignal, target, "slot still calls libc's signal");
            assertNotEquals(stub, target, "signal has its own stub");
        }
    }

    @Test
    void theSigactionStubReportsTheCurrentDispositionAndChangesNothing() {
        Function stub = stub("sigaction");
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        Memory defaultAction = new Memory(256);
        defaultAction.clear(); // SIG_DFL, as chDB's reset passes it
        Memory old = new Memory(256);
        old.clear();
        assertEquals(0, stub.invokeInt(new Object[] {SIGSEGV, defaultAction, old}));
        assertEquals(before.handlerOf(SIGSEGV), old.getLong(0), "the stub reports the JVM's handler");
        assertEquals(0, stub.invokeInt(new Object[] {SIGSEGV, defaultAction, null}));
        SignalHandlerGuard after = SignalHandlerGuard.capture();
        assertEquals(List.of(), after.changedSince(before));
        assertNotEquals(0L, after.handlerOf(SIGSEGV), "SIGSEGV is not SIG_DFL");
        Object nothing = null;
        assertTrue(npe(nothing), "implicit null checks still become NullPointerException");
    }

    @Test
    void theSignalStubReturnsTheCurrentHandlerAndChangesNothing() {
        Function stub = stub("signal");
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        Pointer previous = (Pointer) stub.invoke(Pointer.class, new Object[] {SIGHUP, Pointer.createConstant(1)});
        assertEquals(before.handlerOf(SIGHUP), Pointer.nativeValue(previous));
        assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before));
    }

    @Test
    void connectsLeaveEveryWatchedDispositionAsTheJvmHadIt() {
        Path lib = ChdbInstaller.forUserCache().ensureInstalled();
        Path path = TestEngines.clickHousePath();
        SignalHandlerGuard before = SignalHandlerGuard.capture();
        for (int i = 0; i < 5; i++) {
            try (ChdbConnection c = ChdbConnection.open(lib, path)) {
                assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before), "after connect " + i);
                c.query("SELECT 1", "TSV");
            }
        }
        assertEquals(List.of(), SignalHandlerGuard.capture().changedSince(before));
    }

    private static boolean npe(Object o) {
        try {
            return o.hashCode() == 0;
        } catch (NullPointerException expected) {
            return true;
        }
    }

    private static Function stub(String function) {
        Path lib = ChdbInstaller.forUserCache().ensureInstalled().toAbsolutePath();
        TestEngines.clickHousePath();
        ElfImports imports = ElfImports.read(lib);
        long base = Pointer.nativeValue(NativeLibrary.getInstance(lib.toString()).getFunction("chdb_connect"))
            - imports.symbolValue("chdb_connect");
        return Function.getFunction(new Pointer(SignalIsolation.slotTarget(base + imports.slotsOf(function).get(0))));
    }
}
