package io.dpone.clickhouse.chdb;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Keeps the embedded engine from changing any signal disposition of the JVM, so that no Java thread can ever land in
 * a ClickHouse handler (which sleeps forever) or in {@code SIG_DFL} (which kills the process).
 *
 * <p>Why not chDB's own switch: {@code chdb_set_signal_handlers_enabled(0)} stops ClickHouse from installing its
 * handlers, but it and every {@code chdb_connect} then reset SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS
 * and SIGTSTP to {@code SIG_DFL} (measured with chDB 26.5.3: after a connect with the switch off, SIGSEGV's handler is
 * 0). Restoring afterwards leaves a window in which a safepoint poll or implicit null check on another thread kills
 * or hangs the JVM. So the library's calls never reach libc: after the library is loaded and before its first call,
 * the GOT slots through which {@code libchdb.so} calls {@code sigaction} and {@code signal} are pointed at two small
 * native stubs that report the current disposition and change nothing.
 *
 * <p>The stubs are machine code, not JNA callbacks, on purpose: chDB calls {@code sigaction} from its own threads,
 * also while the process exits, when a callback into the JVM cannot attach (JNA then prints "Can't attach native
 * thread to VM for callback" and returns garbage). The stubs are x86_64 System V; other platforms are refused.
 */
final class SignalIsolation {
    /** Functions of the {@code signal} shape, {@code sighandler_t f(int, sighandler_t)}. */
    private static final List<String> SIGNAL_LIKE = List.of("signal", "bsd_signal", "sysv_signal", "__sysv_signal",
        "sigset");
    private static final int SIGNAL_STUB_OFFSET = 32;
    /** The stubs, once written (one page per process; the library can be loaded only once). */
    private static Pointer stubs;

    private SignalIsolation() {
    }

    /**
     * Points every import of {@code sigaction} and the {@code signal} family in {@code library} (loaded from
     * {@code file}) at the stubs; calling it again is harmless. Throws {@link ChdbException} when the platform or the
     * library is not one this can be done for safely; nothing is written then.
     */
    static synchronized void install(NativeLibrary library, Path file) {
        if (!Platform.isLinux() || !Platform.is64Bit() || !"x86-64".equals(Platform.ARCH)) {
            throw new ChdbException("the embedded ClickHouse is only supported on Linux x86_64 (signal isolation)");
        }
        ElfImports imports = ElfImports.read(file);
        long realSigaction = Pointer.nativeValue(NativeLibrary.getInstance("c").getFunction("sigaction"));
        long base = Pointer.nativeValue(library.getFunction("chdb_connect")) - imports.symbolValue("chdb_connect");
        if (new Pointer(base).getInt(0) != 0x464c457f) {
            throw new ChdbException("the embedded ClickHouse library's load address cannot be established");
        }
        List<Long> sigactionSlots = imports.slotsOf("sigaction");
        if (sigactionSlots.isEmpty()) {
            throw new ChdbException("the embedded ClickHouse library does not import sigaction as expected");
        }
        Image image = new Image(base, base + imports.imageSize());
        if (stubs == null) {
            stubs = writeStubs(realSigaction);
        }
        long sigactionStub = Pointer.nativeValue(stubs);
        for (long slot : sigactionSlots) {
            point(image, base + slot, sigactionStub, realSigaction);
        }
        for (String name : SIGNAL_LIKE) {
            List<Long> slots = imports.slotsOf(name);
            if (!slots.isEmpty()) {
                long real = Pointer.nativeValue(NativeLibrary.getInstance("c").getFunction(name));
                for (long slot : slots) {
                    point(image, base + slot, sigactionStub + SIGNAL_STUB_OFFSET, real);
                }
            }
        }
    }

    /** The current target of the GOT slot at {@code address} (for tests). */
    static long slotTarget(long address) {
        return new Pointer(address).getLong(0);
    }

    /**
     * Two stubs in one executable page. At 0, {@code int sigaction(int sig, const struct sigaction *act, struct
     * sigaction *old)}: when {@code old} is set, tail-calls the real {@code sigaction(sig, NULL, old)} (a query);
     * otherwise returns 0. At {@link #SIGNAL_STUB_OFFSET}, {@code sighandler_t signal(int sig, sighandler_t h)}:
     * queries the real {@code sigaction(sig, NULL, &tmp)} on a 168-byte stack buffer and returns its handler.
     */
    private static Pointer writeStubs(long realSigaction) {
        byte[] sigactionStub = concat(
            hex("4885d2"),          // test rdx, rdx        ; old == NULL?
            hex("740e"),            // je   ret0
            hex("31f6"),            // xor  esi, esi        ; act = NULL: query only
            hex("48b8"), le64(realSigaction), // movabs rax, sigaction
            hex("ffe0"),            // jmp  rax             ; its return value is ours
            hex("31c0"),            // ret0: xor eax, eax
            hex("c3"));             // ret
        byte[] signalStub = concat(
            hex("4881eca8000000"),  // sub  rsp, 168        ; struct sigaction (152 bytes), 16-byte aligned call
            hex("31f6"),            // xor  esi, esi        ; act = NULL
            hex("4889e2"),          // mov  rdx, rsp        ; old = the buffer
            hex("48b8"), le64(realSigaction), // movabs rax, sigaction
            hex("ffd0"),            // call rax
            hex("488b0424"),        // mov  rax, [rsp]      ; the current handler
            hex("4881c4a8000000"),  // add  rsp, 168
            hex("c3"));             // ret
        int page = Libc.INSTANCE.getpagesize();
        Pointer memory = Libc.INSTANCE.mmap(null, page, Libc.PROT_READ | Libc.PROT_WRITE,
            Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        if (memory == null || Pointer.nativeValue(memory) == -1L) {
            throw new ChdbException("no memory for the embedded ClickHouse's signal isolation");
        }
        memory.write(0, sigactionStub, 0, sigactionStub.length);
        memory.write(SIGNAL_STUB_OFFSET, signalStub, 0, signalStub.length);
        if (Libc.INSTANCE.mprotect(memory, page, Libc.PROT_READ | Libc.PROT_EXEC) != 0) {
            throw new ChdbException("the embedded ClickHouse's signal isolation cannot be made executable");
        }
        return memory; // never unmapped: the library calls through it until the process ends
    }

    /**
     * Writes {@code target} into the slot at {@code address}, which must lie in the library's image and still hold
     * the real function (eager binding), an address inside the library (a lazy PLT entry) or the stub already;
     * anything else means the addresses are wrong and nothing is written.
     */
    private static void point(Image image, long address, long target, long real) {
        long current = new Pointer(address).getLong(0);
        if (!image.contains(address) || current != real && current != target && !image.contains(current)) {
            throw new ChdbException("the embedded ClickHouse library's call table is not as expected");
        }
        int page = Libc.INSTANCE.getpagesize();
        Pointer pageStart = new Pointer(address & -page);
        int protection = protectionOf(address);
        boolean writable = (protection & Libc.PROT_WRITE) != 0;
        if (!writable && Libc.INSTANCE.mprotect(pageStart, page, protection | Libc.PROT_WRITE) != 0) {
            throw new ChdbException("the embedded ClickHouse library's call table cannot be written");
        }
        new Pointer(address).setLong(0, target);
        if (!writable) {
            Libc.INSTANCE.mprotect(pageStart, page, protection);
        }
    }

    /** An address range {@code [start, end)}: where the library is loaded, or one mapping of the process. */
    private record Image(long start, long end) {
        boolean contains(long address) {
            return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
        }
    }

    /** The protection of the mapping that holds {@code address}, from {@code /proc/self/maps}. */
    private static int protectionOf(long address) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int dash = line.indexOf('-');
                int space = line.indexOf(' ');
                Image mapping = new Image(Long.parseUnsignedLong(line.substring(0, dash), 16),
                    Long.parseUnsignedLong(line.substring(dash + 1, space), 16));
                if (mapping.contains(address)) {
                    String perms = line.substring(space + 1, space + 5);
                    return (perms.charAt(0) == 'r' ? Libc.PROT_READ : 0)
                        | (perms.charAt(1) == 'w' ? Libc.PROT_WRITE : 0)
                        | (perms.charAt(2) == 'x' ? Libc.PROT_EXEC : 0);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new ChdbException("the process's memory map cannot be read for the embedded ClickHouse");
        }
        throw new ChdbException("the embedded ClickHouse library's call table is not mapped");
    }

    private static byte[] le64(long value) {
        byte[] out = new byte[8];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (value >>> (8 * i));
        }
        return out;
    }

    private static byte[] hex(String s) {
        return java.util.HexFormat.of().parseHex(s);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
