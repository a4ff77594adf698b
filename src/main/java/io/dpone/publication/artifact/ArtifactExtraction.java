package io.dpone.publication.artifact;

import java.nio.file.Path;
import java.util.List;

/** Writes the source snapshot into one file (the store chooses the temp path) and says what it wrote. */
public interface ArtifactExtraction {

    /** Writes every source row into {@code file}; returns the row count and columns written. */
    Result writeTo(Path file);

    /** The file format ClickHouse reads it with ({@code Parquet}). */
    String format();

    record Result(long rows, List<TableDefinition.Column> columns) {
    }
}
