package io.dpone.route;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.manifest.SinkSpec;
import io.dpone.source.SourceColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The staging table of a run: its sort key and its CREATE statement. */
final class StagingDdl {
    /**
     * Insert blocks whose deduplication token the staging table remembers: a chunk insert retried after a transient
     * fault (issue 35) comes right after its first delivery, so a window far below a run's chunk count suffices.
     */
    static final int DEDUPLICATION_WINDOW = 1000;

    private StagingDdl() {
    }

    static String create(TransferRun run) {
        SinkSpec sink = run.plan().manifest().sink();
        List<String> orderBy = orderBy(run);
        return "CREATE TABLE " + ClickHouseSql.table(sink.stagingSchema(), run.stagingTable()) + " ("
            + run.table().columns().stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
                .collect(Collectors.joining(", "))
            + ", " + MetadataColumns.ddl() + ") ENGINE = MergeTree ORDER BY "
            + (orderBy.isEmpty() ? "tuple()" : "(" + ClickHouseSql.idList(orderBy) + ")")
            + " SETTINGS non_replicated_deduplication_window = " + DEDUPLICATION_WINDOW
            + " COMMENT " + ClickHouseSql.literal(run.plan().generationComment());
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
