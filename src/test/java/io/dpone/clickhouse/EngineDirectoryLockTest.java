package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second dpone process on a busy {@code DPONE_HOME} is refused before the engine sees the directory: a typed
 * blocker that says another dpone process (with its pid) holds it, no absolute path, no line of the engine's own.
 */
@io.dpone.testing.ProcessTest
class EngineDirectoryLockTest {
    @TempDir
    Path home;


    @Test
    void aSecondProcessOnTheSameHomeIsToldWhoHoldsIt() throws Exception {
        Path data = home.resolve("clickhouse");
        Process holder = io.dpone.testing.ChildJvm.main(EngineHolderMain.class).args(data.toString()).mergeStderr()
            .start();
        try {
            String pid = io.dpone.testing.ReadyLine.await(holder, "open ", "the engine holder");

            Path base = home.resolve("second");
            int exit = io.dpone.testing.ChildJvm.cli().args("run", Path.of(
                    "examples/batch/embedded-full-refresh.batch.yaml").toAbsolutePath().toString(), "--run-id",
                    "busy-1", "--format", "json")
                .withoutEnv("DPONE_RUNTIME_CONNECTION_CONTEXT").env("DPONE_HOME", home.toString())
                .stdout(Path.of(base + ".out")).stderr(Path.of(base + ".err"))
                .run(java.time.Duration.ofSeconds(120), "the second process");
            String err = Files.readString(Path.of(base + ".err"));
            assertEquals(1, exit, err);
            assertTrue(err.contains("\"sink.embedded_engine_unavailable\"") && err.contains(
                "is in use by another dpone process (pid " + pid + ")"), err);
            assertFalse(err.contains(home.toString()), "no local path: " + err);
        } finally {
            holder.getOutputStream().close();
            io.dpone.testing.Await.exit(holder, java.time.Duration.ofSeconds(30), "the engine holder");
        }
    }

    @Test
    void theLockIsFreeAgainOnceItsHolderCloses() {
        Path data = home.resolve("clickhouse");
        try (EngineDirectoryLock first = EngineDirectoryLock.take(data)) {
            io.dpone.error.DponeException busy = org.junit.jupiter.api.Assertions.assertThrows(
                io.dpone.error.DponeException.class, () -> EngineDirectoryLock.take(data));
            assertTrue(busy.blockers().get(0).message().contains("(pid " + ProcessHandle.current().pid() + ")"),
                busy.blockers().toString());
        }
        EngineDirectoryLock.take(data).close();
    }

    @Test
    void aLinkAtTheLockFilesNameIsRefusedTypedAndTheDataDirectoryIsPrivate() throws Exception {
        // issue 37: a planted link (present or dangling) at the lock's name is never followed
        Path data = Files.createDirectories(home.resolve("planted"));
        Files.setPosixFilePermissions(data, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path victim = Files.writeString(home.resolve("victim"), "keep");
        Files.createSymbolicLink(data.resolve(EngineDirectoryLock.FILE), victim);
        io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> EngineDirectoryLock.take(data));
        assertEquals("runtime.unsafe_path", e.blockers().get(0).code());
        assertEquals("keep", Files.readString(victim));
        Files.delete(data.resolve(EngineDirectoryLock.FILE));
        Files.createSymbolicLink(data.resolve(EngineDirectoryLock.FILE), home.resolve("would-be-created"));
        org.junit.jupiter.api.Assertions.assertThrows(io.dpone.error.DponeException.class,
            () -> EngineDirectoryLock.take(data));
        org.junit.jupiter.api.Assertions.assertFalse(Files.exists(home.resolve("would-be-created")));
        Files.delete(data.resolve(EngineDirectoryLock.FILE));
        EngineDirectoryLock.take(data).close();
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data)), "the engine's data directory is 0700");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(data.resolve(EngineDirectoryLock.FILE))));
    }
}
