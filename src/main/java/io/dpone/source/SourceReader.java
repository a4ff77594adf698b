package io.dpone.source;

import io.dpone.manifest.TableRef;
import java.util.List;

/** Reads a snapshot of one source table. Implementations: {@link JdbcSourceReader} (SQL Server, H2 stand-in). */
public interface SourceReader extends AutoCloseable {
    /** Describes {@code table}, restricted to {@code columns} when non-empty, in that order; values refused. */
    SourceTable describe(TableRef table, List<String> columns);

    /**
     * Describes {@code table} as {@link #describe(TableRef, List)} does, each column under its declared value policy
     * ({@code source.value_policy}); a policy that cannot apply to its column blocks with the manifest path. A reader
     * without policies refuses declared ones rather than ignore them.
     */
    default SourceTable describe(TableRef table, List<String> columns, io.dpone.manifest.ValuePolicies policies) {
        if (policies.declared()) {
            throw new io.dpone.error.DponeException(io.dpone.error.BlockerCode.MANIFEST_OPTION_UNSUPPORTED,
                "source.value_policy", "this source reader applies no value policies");
        }
        return describe(table, columns);
    }

    /**
     * Opens a streaming cursor over the rows of {@code table}: all of them when {@code rowLimit} is 0, else the
     * first {@code rowLimit} in primary-key order (a deterministic sample for certification scenarios).
     */
    RowCursor open(SourceTable table, int fetchSize, long rowLimit);

    /**
     * The table's row count as the database's metadata estimates it (no scan), or empty when it cannot say. Only
     * for progress displays: never a gate's input.
     */
    default java.util.OptionalLong estimatedRows(SourceTable table) {
        return java.util.OptionalLong.empty();
    }

    /**
     * Where to cut {@code table} into at most {@code n} ranges of its primary key {@code key} (its columns in key
     * order), from the clustered index's statistics or a key sample; empty for an empty table (or a reader that
     * cannot split).
     */
    default java.util.Optional<KeyBoundaries> keyBoundaries(SourceTable table, List<SourceColumn> key, int n) {
        return java.util.Optional.empty();
    }

    /**
     * A streaming cursor over the rows of {@code table} whose primary key lies in {@code range}, in no particular
     * order.
     */
    default RowCursor open(SourceTable table, int fetchSize, KeyRange range) {
        throw new UnsupportedOperationException("this reader cannot read key ranges");
    }

    @Override
    void close();
}
