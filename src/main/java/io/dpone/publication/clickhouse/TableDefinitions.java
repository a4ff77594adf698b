package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.CatalogueReads;
import io.dpone.clickhouse.cluster.MergeTreeTable;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.artifact.TableDefinition;

/**
 * A {@link TableDefinition} as the table the ClickHouse package creates ({@link MergeTreeTable}, which renders
 * {@code CREATE TABLE} with quoted identifiers, checked types, the sort key, the generation marker as a quoted comment
 * and, for non-replicated engines, {@code non_replicated_deduplication_window}). The engine must be a
 * {@code *MergeTree} family name, or the publication blocks with {@code publication.engine_invalid}.
 */
public final class TableDefinitions {
    private TableDefinitions() {
    }

    /** The table to create for {@code d}. */
    public static MergeTreeTable table(TableDefinition d) {
        return new MergeTreeTable(d.database(), d.name(), d.columns().stream()
            .map(c -> new CatalogueReads.Column(c.name(), c.type())).toList(), engine(d.engine()), d.orderBy(),
            d.marker() == null ? null : d.marker().comment());
    }

    /** The engine name when it is a {@code *MergeTree} family name; a typed blocker otherwise. */
    public static String engine(String engine) {
        if (!MergeTreeTable.mergeTreeFamily(engine)) {
            throw new DponeException(BlockerCode.PUBLICATION_ENGINE_INVALID,
                "sink.options.physical_design.storage.clickhouse.engine",
                "the table engine must be a MergeTree family name");
        }
        return engine;
    }
}
