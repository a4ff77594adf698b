package io.dpone.quality;

import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.util.List;

/**
 * The source side of every gate, computed as the rows are encoded: row count, NULL counts, the typed hash (of every
 * row, or of the rows whose hash falls in the {@code hash_sample_modulo} sample), the fidelity columns' hashes and
 * the distinct counts (docs/quality-gates.md).
 */
public final class SourceStatsCollector implements SourceEvidence {
    private final List<String> names;
    private final long[] nulls;
    private final TypedRowHasher hasher;
    private final ColumnDigests digests;
    private final int sampleModulo;
    private long rows;
    private long hash;
    private long hashed;

    /** Evidence over {@code table}'s selected columns; {@code sampleModulo} ≤ 1 hashes every row. */
    public SourceStatsCollector(SourceTable table, int sampleModulo, List<String> distinctColumns) {
        this.names = table.columns().stream().map(SourceColumn::name).toList();
        this.nulls = new long[names.size()];
        this.hasher = new TypedRowHasher(table.columns());
        this.digests = new ColumnDigests(names, FidelityColumns.all(table.columns()), distinctColumns,
            uniqueKey(table));
        this.sampleModulo = sampleModulo;
    }

    /** The single-column primary key when it is NOT NULL (its distinct count is the row count), else null. */
    public static String uniqueKey(SourceTable table) {
        if (table.primaryKey().size() != 1) {
            return null;
        }
        String key = table.primaryKey().get(0);
        return table.columns().stream().filter(c -> c.name().equalsIgnoreCase(key) && !c.nullable()).findFirst()
            .map(SourceColumn::name).orElse(null);
    }

    @Override
    public void row(Object[] values, byte[] encoded, int[] offsets) {
        long h = hasher.hash(encoded, offsets);
        digests.add(hasher.valueHashes());
        if (sampleModulo <= 1 || Long.remainderUnsigned(h, sampleModulo) == 0) {
            hash += h;
            hashed++;
        }
        for (int i = 0; i < nulls.length; i++) {
            if (values[i] == null) {
                nulls[i]++;
            }
        }
        rows++;
    }

    @Override
    public SourceStats finish(long encodedBytes) {
        return SourceStats.of(rows, names, nulls, hash, hashed, encodedBytes, digests);
    }
}
