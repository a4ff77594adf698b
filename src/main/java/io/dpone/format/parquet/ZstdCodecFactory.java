package io.dpone.format.parquet;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Page compression for Parquet chunks: ZSTD through zstd-jni, or none.
 *
 * <p>Hand-written because parquet-hadoop's own {@code CodecFactory} builds every codec, ZSTD included, as a Hadoop
 * {@code org.apache.hadoop.io.compress.CompressionCodec} (its {@code ZstandardCodec} implements that interface and
 * is configured through a Hadoop {@code Configuration}), so using it needs hadoop-common on the class path. This
 * factory calls zstd-jni directly and makes Parquet writing Hadoop-free.
 *
 * <p>A compressor is used by one writer thread: it reuses its buffers, and the {@link BytesInput} it returns is
 * valid until its next call (parquet's page store copies the page before compressing the next one, the same
 * contract parquet's own heap compressors have).
 */
public final class ZstdCodecFactory implements CompressionCodecFactory {
    /** Level used when none is given: fast, with most of the ratio of the default level 3 on typical tables. */
    public static final int DEFAULT_LEVEL = 1;

    private final int level;

    public ZstdCodecFactory(int level) {
        this.level = level;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return getCompressor(codec, level);
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec, int compressionLevel) {
        return switch (codec) {
            case UNCOMPRESSED -> new Identity();
            case ZSTD -> new ZstdCompressor(compressionLevel);
            default -> throw new UnsupportedOperationException("codec " + codec + " is not supported without Hadoop");
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> new IdentityDecompressor();
            case ZSTD -> new ZstdDecompressor();
            default -> throw new UnsupportedOperationException("codec " + codec + " is not supported without Hadoop");
        };
    }

    @Override
    public void release() {
        // compressors own their native contexts and release them themselves
    }

    /** A ByteArrayOutputStream whose buffer can be read without a copy. */
    private static final class Scratch extends ByteArrayOutputStream {
        Scratch() {
            super(1 << 16);
        }

        byte[] buffer() {
            return buf;
        }
    }

    private static final class ZstdCompressor implements BytesInputCompressor {
        private final ZstdCompressCtx ctx = new ZstdCompressCtx();
        private final Scratch in = new Scratch();
        private byte[] out = new byte[0];

        ZstdCompressor(int level) {
            ctx.setLevel(level);
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            in.reset();
            bytes.writeAllTo(in);
            int n = in.size();
            int bound = (int) Zstd.compressBound(n);
            if (out.length < bound) {
                out = new byte[Math.max(bound, out.length * 2)];
            }
            int written = ctx.compressByteArray(out, 0, out.length, in.buffer(), 0, n);
            return BytesInput.from(out, 0, written);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
            ctx.close();
        }
    }

    private static final class Identity implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput bytes) {
            return bytes;
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.UNCOMPRESSED;
        }

        @Override
        public void release() {
        }
    }

    private static final class ZstdDecompressor implements BytesInputDecompressor {
        private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
        private final Scratch in = new Scratch();

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            in.reset();
            bytes.writeAllTo(in);
            byte[] dst = new byte[uncompressedSize];
            check(ctx.decompressByteArray(dst, 0, uncompressedSize, in.buffer(), 0, in.size()), uncompressedSize);
            return BytesInput.from(dst);
        }

        /** Reads {@code compressedSize} bytes at {@code input}'s position, puts the page at {@code output}'s. */
        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
            throws IOException {
            byte[] src = new byte[compressedSize];
            input.duplicate().get(src);
            byte[] dst = new byte[decompressedSize];
            check(ctx.decompressByteArray(dst, 0, decompressedSize, src, 0, compressedSize), decompressedSize);
            output.put(dst);
        }

        private static void check(int actual, int expected) throws IOException {
            if (actual != expected) {
                throw new IOException("zstd page decompressed to " + actual + " bytes, expected " + expected);
            }
        }

        @Override
        public void release() {
            ctx.close();
        }
    }

    private static final class IdentityDecompressor implements BytesInputDecompressor {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
            return bytes;
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize) {
            ByteBuffer slice = input.duplicate();
            slice.limit(slice.position() + compressedSize);
            output.put(slice);
        }

        @Override
        public void release() {
        }
    }
}
