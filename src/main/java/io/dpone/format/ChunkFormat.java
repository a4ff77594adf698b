package io.dpone.format;

import io.dpone.source.SourceColumn;
import java.nio.file.Path;
import java.util.List;

/** A chunk file format: how chunks are written and how ClickHouse reads them back. */
public interface ChunkFormat {
    /** The ClickHouse format name ({@code RowBinary}, {@code TabSeparated}, {@code Parquet}). */
    String clickHouseFormat();

    /** File name extension without the dot. */
    String extension();

    /** Opens a writer for a new chunk file. */
    ChunkWriter open(Path file, List<SourceColumn> columns);

    /**
     * The {@code SELECT} expression that turns the file's column {@code c} into the target column type (most
     * formats read the target type directly and return the quoted name unchanged).
     */
    default String readExpression(SourceColumn column) {
        return io.dpone.clickhouse.ClickHouseSql.id(column.name());
    }

    /** Settings the insert that reads this format needs (e.g. exact float parsing), or {@code null}. */
    default String insertSettings() {
        return null;
    }

    /** The file's structure as ClickHouse should read it ({@code name Type, ...}). */
    default String structure(List<SourceColumn> columns) {
        return columns.stream().map(c -> io.dpone.clickhouse.ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
            .collect(java.util.stream.Collectors.joining(", "));
    }
}
