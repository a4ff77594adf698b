package io.dpone.clickhouse.chdb;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The few libc calls the engine's signal isolation and its stderr capture ({@link NativeStderr}) need; JNA has no
 * bindings for them.
 */
interface Libc extends Library {
    Libc INSTANCE = Native.load("c", Libc.class);

    int PROT_READ = 1;
    int PROT_WRITE = 2;
    int PROT_EXEC = 4;
    int MAP_PRIVATE = 0x02;
    int MAP_ANONYMOUS = 0x20;

    int sigaction(int signum, Pointer act, Pointer oldact);

    int pthread_sigmask(int how, Pointer set, Pointer oldset);

    int mprotect(Pointer addr, long length, int prot);

    Pointer mmap(Pointer addr, long length, int prot, int flags, int fd, long offset);

    int getpagesize();

    int dup(int fd);

    int dup2(int oldfd, int newfd);

    int pipe(int[] fds);

    int close(int fd);

    long read(int fd, byte[] buf, long count);
}
