package io.dpone.connect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a local input file (a manifest, a connection context, a serve configuration, a CDC events file or
 * checkpoint) through a byte bound: a regular file's size is looked at before it is opened, and anything else
 * (a {@code /proc} file that reports size 0) is read through a stream that stops one byte past the bound. A file over
 * the bound is {@link TooLarge}, and is never held in memory whole. A file that is not a regular file (a FIFO, which
 * would block the open until a writer comes, a device such as {@code /dev/zero}, a socket) is {@link NotRegular},
 * refused before it is opened.
 */
public final class BoundedFile {
    /** The largest bound a caller may ask for: what one Java array can hold. */
    public static final long MAX_BOUND = Integer.MAX_VALUE - 16;

    /** The file holds more than the bound; {@link #limit()} is that bound in bytes. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        private final long limit;

        TooLarge(long limit) {
            super("more than " + limit + " bytes");
            this.limit = limit;
        }

        /** The bound, in bytes. */
        public long limit() {
            return limit;
        }
    }

    /** The input is not a regular file (a FIFO, a device, a socket, a directory); it was not opened. */
    public static final class NotRegular extends IOException {
        private static final long serialVersionUID = 1L;

        NotRegular(Path file) {
            super(file.getFileName() + " is not a regular file (a FIFO, a device or a socket); it was not opened");
        }
    }

    private BoundedFile() {
    }

    /** Refuses an existing {@code file} that is not a regular file, before anything opens it. */
    public static void requireRegular(Path file) throws NotRegular {
        if (Files.exists(file) && !PrivateFiles.regularInput(file)) {
            throw new NotRegular(file);
        }
    }

    /** The bytes of {@code file}, at most {@code maxBytes} of them; {@link TooLarge} when there are more. */
    public static byte[] read(Path file, long maxBytes) throws IOException {
        if (maxBytes < 0 || maxBytes > MAX_BOUND) {
            throw new IllegalArgumentException("bound out of range: " + maxBytes);
        }
        requireRegular(file);
        if (Files.size(file) > maxBytes) {
            throw new TooLarge(maxBytes);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            throw new TooLarge(maxBytes);
        }
        return bytes;
    }

    /**
     * The text of {@code file}, strict UTF-8 (a malformed byte is a {@link CharacterCodingException}, never a
     * replacement character), at most {@code maxBytes} bytes of it.
     */
    public static String readUtf8(Path file, long maxBytes) throws IOException {
        byte[] bytes = read(file, maxBytes);
        return StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes)).toString();
    }
}
