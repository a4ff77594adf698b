package io.dpone.format.parquet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.MessageType;

/**
 * A Parquet file written column by column, straight into parquet-column's {@link ColumnWriter}s, cut into row groups
 * by buffered size and row count. It is the part of parquet-hadoop's {@code InternalParquetRecordWriter} a flat
 * schema needs, without the record-assembly layer: the caller writes each value with its definition level into
 * {@link #columns()} and calls {@link #endRow()}.
 *
 * <p>Why not {@code ParquetWriter} with a {@code WriteSupport}: both {@code WriteSupport} and
 * {@code ParquetWriter.Builder} declare abstract methods taking {@code org.apache.hadoop.conf.Configuration}
 * ({@code init(Configuration)}, {@code getWriteSupport(Configuration)}), so a subclass does not compile without
 * Hadoop on the class path, and {@code ExampleParquetWriter.builder(...)} does not either (its overloads name
 * {@code org.apache.hadoop.fs.Path}). {@link ParquetFileWriter} over a {@link LocalOutputFile},
 * {@link ColumnChunkPageWriteStore} and {@link ParquetProperties#newColumnWriteStore} are public and Hadoop-free.
 *
 * <p>Memory: one row group's encoded, compressed pages plus the open page and dictionary of each column; the
 * buffered size is checked every few rows (adaptively, like parquet-hadoop) against {@code rowGroupBytes}.
 */
public final class RowGroupFileWriter implements AutoCloseable {
    private static final int MIN_CHECK_ROWS = 100;
    private static final int MAX_CHECK_ROWS = 10_000;

    private final MessageType schema;
    private final ParquetProperties props;
    private final BytesInputCompressor compressor;
    private final ParquetFileWriter file;
    private final ColumnDescriptor[] descriptors;
    private final ColumnWriter[] writers;
    private final long rowGroupBytes;
    private final long rowGroupRows;
    private final Map<String, String> metadata;
    private PositionOutputStream stream;
    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columnStore;
    private long rowsInGroup;
    private long nextCheck = MIN_CHECK_ROWS;
    private long bufferedAtCheck;
    private int rowGroups;
    private boolean closed;

    public RowGroupFileWriter(Path path, MessageType schema, ParquetProperties props, BytesInputCompressor compressor,
                              long rowGroupBytes, long rowGroupRows, Map<String, String> metadata) throws IOException {
        this.schema = schema;
        this.props = props;
        this.compressor = compressor;
        this.rowGroupBytes = rowGroupBytes;
        this.rowGroupRows = rowGroupRows;
        this.metadata = metadata;
        List<ColumnDescriptor> columns = schema.getColumns();
        this.descriptors = columns.toArray(new ColumnDescriptor[0]);
        this.writers = new ColumnWriter[descriptors.length];
        // the 8-argument constructor: the 7-argument one shares its arity with a package-private constructor
        // taking a Hadoop Configuration, which javac then needs to resolve the overload
        this.file = new ParquetFileWriter(new TrackedOutputFile(path), schema, ParquetFileWriter.Mode.OVERWRITE,
            rowGroupBytes, 0, props.getColumnIndexTruncateLength(), props.getStatisticsTruncateLength(),
            props.getPageWriteChecksumEnabled());
        try {
            file.start();
            startRowGroup();
        } catch (IOException | RuntimeException e) {
            closeStream();
            throw e;
        }
    }

    /**
     * A {@link LocalOutputFile} that keeps its stream: {@link ParquetFileWriter#abort()} only marks the writer, and
     * an aborted writer's {@code close()} leaves the stream open, so an abandoned chunk would leak its descriptor.
     */
    private final class TrackedOutputFile implements OutputFile {
        private final LocalOutputFile local;

        private final Path path;

        TrackedOutputFile(Path path) {
            this.path = path;
            local = new LocalOutputFile(path);
        }

        /** Created new ({@code O_EXCL}, never through a link at the name), then narrowed to 0600. */
        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            stream = local.create(blockSizeHint);
            io.dpone.connect.PrivateFiles.narrow(path);
            return stream;
        }

        /** What is at the name is removed (a link itself, not its target), then the file is created new. */
        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            Files.deleteIfExists(path);
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return local.supportsBlockSize();
        }

        @Override
        public long defaultBlockSize() {
            return local.defaultBlockSize();
        }

        @Override
        public String getPath() {
            return local.getPath();
        }
    }

    /**
     * The column writers of the current row group, in schema order. The array is the same object for the life of
     * the file, its elements are replaced when a row group is cut: read them per row, never cache an element.
     */
    public ColumnWriter[] columns() {
        return writers;
    }

    /** Completes a row whose values have all been written; may cut a row group. */
    public void endRow() throws IOException {
        columnStore.endRecord();
        rowsInGroup++;
        if (rowsInGroup >= rowGroupRows) {
            flushRowGroup();
        } else if (rowsInGroup >= nextCheck) {
            long buffered = columnStore.getBufferedSize();
            bufferedAtCheck = buffered;
            if (buffered >= rowGroupBytes) {
                flushRowGroup();
            } else {
                // aim half way to the estimated limit, as parquet-hadoop does, within bounds
                double perRow = (double) buffered / rowsInGroup;
                long estimate = perRow <= 0 ? MAX_CHECK_ROWS : (long) ((rowGroupBytes - buffered) / perRow / 2);
                nextCheck = rowsInGroup + Math.max(MIN_CHECK_ROWS, Math.min(MAX_CHECK_ROWS, estimate));
            }
        }
    }

    /** Bytes written to the file plus the current row group's buffered size at its last check. */
    public long estimatedBytes() throws IOException {
        return file.getPos() + bufferedAtCheck;
    }

    /** Row groups completed so far. */
    public int rowGroups() {
        return rowGroups;
    }

    private void startRowGroup() {
        pageStore = ColumnChunkPageWriteStore.builder()
            .withCompressorProvider(d -> compressor)
            .withSchema(schema)
            .withAllocator(props.getAllocator())
            .withColumnIndexTruncateLength(props.getColumnIndexTruncateLength())
            .withPageWriteChecksumEnabled(props.getPageWriteChecksumEnabled())
            .withRowGroupOrdinal(rowGroups)
            .build();
        columnStore = props.newColumnWriteStore(schema, pageStore, pageStore);
        for (int i = 0; i < descriptors.length; i++) {
            writers[i] = columnStore.getColumnWriter(descriptors[i]);
        }
        rowsInGroup = 0;
        nextCheck = MIN_CHECK_ROWS;
        bufferedAtCheck = 0;
    }

    private void flushRowGroup() throws IOException {
        file.startBlock(rowsInGroup);
        columnStore.flush();
        pageStore.flushToFileWriter(file);
        file.endBlock();
        rowGroups++;
        releaseStores();
        startRowGroup();
    }

    private void releaseStores() {
        columnStore.close();
        pageStore.close();
    }

    /** Writes the last row group and the footer and closes the file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (rowsInGroup > 0) {
                file.startBlock(rowsInGroup);
                columnStore.flush();
                pageStore.flushToFileWriter(file);
                file.endBlock();
                rowGroups++;
            }
            file.end(metadata); // writes the footer and closes the stream
        } catch (IOException | RuntimeException e) {
            closeStream();
            throw e;
        } finally {
            releaseStores();
        }
    }

    /** Abandons the file: releases the buffers and closes the stream without a footer (the caller deletes it). */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            releaseStores();
        } finally {
            file.abort();
            closeStream();
        }
    }

    private void closeStream() {
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException | RuntimeException ignored) {
                // the file is discarded; the failure that got us here is the one reported
            }
        }
    }
}
