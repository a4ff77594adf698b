package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A password file is read through a bound: a huge or endless file is a typed refusal, never a full heap. */
class CredentialFileTest {
    @TempDir
    Path dir;

    private static ConnectionSpec resolve(Path file) {
        ConnectionContext context = ConnectionContext.of(Map.of("ch", new ContextEntry("ch", ConnectionType.CLICKHOUSE,
            "http://localhost:8123", "dpone", null, file.toString(), false, Map.of())), false);
        return context.resolve("ch", ConnectionType.CLICKHOUSE, "sink.connection_ref");
    }

    @Test
    void aPasswordFileIsReadAndStripped() throws Exception {
        assertEquals("s3cret", resolve(Files.writeString(dir.resolve("pw"), "s3cret\n")).password().reveal());
    }

    @Test
    void anEndlessDeviceIsRefusedUnreadWithATypedCode() {
        Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(zero), "a Linux machine");
        Blocker b = assertThrows(DponeException.class, () -> resolve(zero)).blockers().get(0);
        assertEquals("connection.credential_missing", b.code()); // issue 37: not a regular file, refused unopened
        assertTrue(b.message().contains("alias 'ch'") && !b.message().contains("/dev/zero"), b.message());
    }

    @Test
    void aFileJustOverTheBoundIsRefusedAndOneAtItIsRead() throws Exception {
        Path at = Files.writeString(dir.resolve("at"), "x".repeat(CredentialResolver.MAX_CREDENTIAL_BYTES));
        assertEquals(CredentialResolver.MAX_CREDENTIAL_BYTES, resolve(at).password().reveal().length());
        Path over = Files.writeString(dir.resolve("over"), "x".repeat(CredentialResolver.MAX_CREDENTIAL_BYTES + 1));
        assertEquals("connection.credential_too_large",
            assertThrows(DponeException.class, () -> resolve(over)).blockers().get(0).code());
        Path binary = Files.write(dir.resolve("bin"), new byte[] {(byte) 0xC3, 0x28});
        Blocker b = assertThrows(DponeException.class, () -> resolve(binary)).blockers().get(0);
        assertEquals("connection.credential_missing", b.code());
        assertFalse(b.message().contains(dir.toString()), b.message());
    }
}
