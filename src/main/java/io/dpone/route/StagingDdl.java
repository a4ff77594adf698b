package io.dpone.route;

import io.dpone.clickhouse.CatalogueReads.Column;
import io.dpone.clickhouse.TableLifecycle.TableSpec;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.manifest.SinkSpec;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The staging table of a run: its sort key and its definition. */
final class StagingDdl {
    /**
     * Insert blocks whose deduplication token the staging table remembers: a chunk insert retried after a transient
     * fault (issue 35) comes right after its first delivery, so a window far below a run's chunk count suffices.
     */
    static final int DEDUPLICATION_WINDOW = 1000;

    private StagingDdl() {
    }

    /**
     * The staging table: the source's columns with their ClickHouse types, then the metadata columns; MergeTree
     * sorted by {@link #orderBy}; a deduplication window for retried chunk inserts; the generation comment.
     */
    static TableSpec create(TransferRun run) {
        SinkSpec sink = run.plan().manifest().sink();
        List<Column> columns = new ArrayList<>();
        run.table().columns().forEach(c -> columns.add(new Column(c.name(), c.clickHouseType())));
        columns.addAll(MetadataColumns.columns());
        return new TableSpec(sink.stagingSchema(), run.stagingTable(), "MergeTree", columns, orderBy(run),
            Map.of("non_replicated_deduplication_window", String.valueOf(DEDUPLICATION_WINDOW)),
            run.plan().generationComment());
    }

    /**
     * The staging (and so target) sort key: {@code sink.options.order_by} when given, each a selected non-nullable
     * column; otherwise the source primary key when all of it is selected and non-nullable; otherwise none.
     */
    static List<String> orderBy(TransferRun run) {
        List<String> wanted = run.plan().manifest().sink().options().orderBy();
        List<String> key = new ArrayList<>();
        if (wanted.isEmpty()) {
            for (String name : run.table().primaryKey()) {
                SourceColumn c = NamedColumns.column(run.table(), name);
                if (c == null || c.nullable()) {
                    return List.of();
                }
                key.add(c.name());
            }
            return key;
        }
        wanted.forEach(name -> key.add(NamedColumns.column(run.table(), name).name())); // NamedColumns checked them
        return key;
    }
}
