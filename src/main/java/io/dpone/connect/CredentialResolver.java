package io.dpone.connect;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a credential from its configured source (environment variable or file) into a {@link Secret}. */
public final class CredentialResolver {
    private CredentialResolver() {
    }

    /** The largest credential file read (a password, a key): a file of more is refused, never read whole. */
    static final int MAX_CREDENTIAL_BYTES = 64 * 1024;

    /**
     * The credential file's text, read through a bounded buffer: {@code /dev/zero}, a log file or a disk image named
     * by mistake is refused with a typed blocker instead of filling the heap.
     */
    private static String readBounded(ContextEntry e, String subject) {
        byte[] bytes;
        try {
            BoundedFile.requireRegular(Path.of(e.passwordFile()));
        } catch (IOException | RuntimeException ex) {
            throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, subject,
                "credential file for alias '" + e.alias() + "' is not a regular file (a FIFO, a device or a socket); "
                    + "it was not opened");
        }
        try (java.io.InputStream in = Files.newInputStream(Path.of(e.passwordFile()))) {
            bytes = in.readNBytes(MAX_CREDENTIAL_BYTES + 1);
        } catch (IOException | RuntimeException ex) {
            throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, subject,
                "credential file for alias '" + e.alias() + "' cannot be read");
        }
        if (bytes.length > MAX_CREDENTIAL_BYTES) {
            throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_TOO_LARGE, subject,
                "credential file for alias '" + e.alias() + "' holds more than " + MAX_CREDENTIAL_BYTES
                    + " bytes; it is not a password file");
        }
        java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
        try {
            return utf8.decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException ex) {
            throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, subject,
                "credential file for alias '" + e.alias() + "' is not UTF-8 text");
        }
    }

    static ConnectionSpec resolve(ContextEntry e, String subject) {
        Secret password = null;
        if (e.passwordEnv() != null) {
            String value = System.getenv(e.passwordEnv());
            if (value == null) {
                throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, subject,
                    "credential environment variable '" + e.passwordEnv() + "' for alias '" + e.alias()
                        + "' is not set");
            }
            password = Secret.of(value);
        } else if (e.passwordFile() != null) {
            password = Secret.of(readBounded(e, subject).strip());
        }
        String source = e.passwordEnv() != null ? "password_env " + e.passwordEnv()
            : e.passwordFile() != null ? "password_file '" + e.passwordFile() + "'" : "no password configured";
        return new ConnectionSpec(e.alias(), e.type(), e.url(), e.user(), password, e.embedded(), e.options(),
            source);
    }
}
