package io.dpone.cdc.mssql;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.TableStatsReader;
import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.manifest.TableRef;
import io.dpone.quality.GateResult;
import io.dpone.quality.NullCountGate;
import io.dpone.quality.RowCountGate;
import io.dpone.quality.SourceStats;
import io.dpone.quality.SourceStatsCollector;
import io.dpone.quality.TargetStats;
import io.dpone.quality.TypedHashGate;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.util.List;

/**
 * A full refresh's gates (row count, NULL counts, typed hash over every row) between a source table and a CDC
 * serving table, computed by the same code as a full refresh's: the source side from the rows the snapshot reader
 * reads, the target side by {@link TableStatsReader} over the serving table's payload columns.
 */
final class ServingGates {
    private ServingGates() {
    }

    static List<GateResult> compare(JdbcSourceReader source, TableRef table, ClickHouseEndpoint ch, String database,
                                    String serving) {
        SourceTable described = source.describe(table, List.of());
        List<String> names = described.columns().stream().map(SourceColumn::name).toList();
        SourceStatsCollector collector = new SourceStatsCollector(described, 1, List.of());
        RowBinaryEncoder encoder = new RowBinaryEncoder(described.columns());
        ByteBuf buf = new ByteBuf(4096);
        int[] offsets = new int[names.size() + 1];
        long bytes = 0;
        try (RowCursor rows = source.open(described, 1000, -1)) {
            Object[] row = new Object[names.size()];
            while (rows.next(row)) {
                buf.reset();
                encoder.encode(row, buf, offsets);
                collector.row(row, buf.array(), offsets);
                bytes += buf.length();
            }
        }
        SourceStats s = collector.finish(bytes);
        TargetStats t = TableStatsReader.read(ch, database, serving, names, List.of(), "none", 1, List.of());
        return List.of(new RowCountGate().evaluate(s, t), new NullCountGate().evaluate(s, t),
            new TypedHashGate("full").evaluate(s, t));
    }
}
