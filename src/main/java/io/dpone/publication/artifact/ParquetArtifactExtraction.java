package io.dpone.publication.artifact;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.format.ByteBuf;
import io.dpone.format.ChunkWriter;
import io.dpone.format.ParquetFormat;
import io.dpone.manifest.TableRef;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceReader;
import io.dpone.source.SourceTable;
import java.nio.file.Path;
import java.util.List;

/**
 * Extracts one source table into one Parquet file with the route's {@link ParquetFormat} writer. Bounds are
 * enforced while writing, before the file could ever be sealed: more rows than
 * {@code external_content_row_budget} ({@code publication.external_content_row_budget_exceeded}) or more encoded
 * bytes than {@code max_source_bytes} ({@code source.max_source_bytes_exceeded}). A bound of 0 means unbounded.
 */
public final class ParquetArtifactExtraction implements ArtifactExtraction {
    private static final int FETCH_SIZE = 10_000;
    private static final int SIZE_CHECK_EVERY = 4096;

    private final SourceReader reader;
    private final TableRef table;
    private final List<String> columns;
    private final long maxSourceBytes;
    private final long rowBudget;
    private final ParquetFormat format;

    public ParquetArtifactExtraction(SourceReader reader, TableRef table, List<String> columns, long maxSourceBytes,
                                     long rowBudget) {
        this(reader, table, columns, maxSourceBytes, rowBudget, new ParquetFormat());
    }

    public ParquetArtifactExtraction(SourceReader reader, TableRef table, List<String> columns, long maxSourceBytes,
                                     long rowBudget, ParquetFormat format) {
        if (maxSourceBytes < 0 || rowBudget < 0) {
            throw new IllegalArgumentException("bounds must not be negative");
        }
        this.reader = reader;
        this.table = table;
        this.columns = List.copyOf(columns);
        this.maxSourceBytes = maxSourceBytes;
        this.rowBudget = rowBudget;
        this.format = format;
    }

    @Override
    public String format() {
        return format.clickHouseFormat();
    }

    @Override
    public Result writeTo(Path file) {
        SourceTable source = reader.describe(table, columns);
        List<SourceColumn> cols = source.columns();
        Object[] row = new Object[cols.size()];
        ByteBuf unused = new ByteBuf(16);
        long rows = 0;
        try (RowCursor cursor = reader.open(source, FETCH_SIZE, 0); ChunkWriter writer = format.open(file, cols)) {
            while (cursor.next(row)) {
                rows++;
                if (rowBudget > 0 && rows > rowBudget) {
                    throw new DponeException(BlockerCode.PUBLICATION_EXTERNAL_ROW_BUDGET_EXCEEDED,
                        "sink.options.physical_design.storage.clickhouse.cluster.external_content_row_budget",
                        "the source holds more rows than external_content_row_budget (" + rowBudget + ")");
                }
                writer.write(row, unused);
                if (rows % SIZE_CHECK_EVERY == 0) {
                    checkBytes(writer.bytes());
                }
            }
            writer.close();
            checkBytes(writer.bytes());
        }
        return new Result(rows, cols.stream()
            .map(c -> new TableDefinition.Column(c.name(), c.clickHouseType())).toList());
    }

    private void checkBytes(long bytes) {
        if (maxSourceBytes > 0 && bytes > maxSourceBytes) {
            throw new DponeException(BlockerCode.SOURCE_MAX_BYTES_EXCEEDED, "sink.strategy.max_source_bytes",
                "the extracted artifact exceeds max_source_bytes (" + maxSourceBytes + ")");
        }
    }
}
