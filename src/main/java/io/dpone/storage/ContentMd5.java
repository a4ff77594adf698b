package io.dpone.storage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The base64 MD5 digest an upload sends as {@code Content-MD5}, so the server verifies what it stored. */
final class ContentMd5 {
    private ContentMd5() {
    }

    /** The Content-MD5 of a whole file. */
    static String of(Path file) throws IOException {
        MessageDigest md = md5();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return Base64.getEncoder().encodeToString(md.digest());
    }

    /** The Content-MD5 of {@code length} bytes of {@code buffer} from {@code offset}. */
    static String of(byte[] buffer, int offset, int length) {
        MessageDigest md = md5();
        md.update(buffer, offset, length);
        return Base64.getEncoder().encodeToString(md.digest());
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 unavailable", e);
        }
    }
}
