package io.dpone.publication.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.clickhouse.CatalogueReads.Column;
import io.dpone.clickhouse.cluster.MergeTreeTable;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.TableDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableDefinitionsTest {
    static final List<TableDefinition.Column> COLS = List.of(new TableDefinition.Column("id", "Int32"),
        new TableDefinition.Column("at", "Nullable(DateTime64(7, 'UTC'))"));

    @Test
    void aDefinitionBecomesTheTableWithItsMarkerAsComment() {
        TableDefinition d = new TableDefinition("analytics", "cand", COLS, "MergeTree", List.of("id"),
            new GenerationMarker("g-1", "op-1"));
        assertEquals(new MergeTreeTable("analytics", "cand", List.of(new Column("id", "Int32"),
            new Column("at", "Nullable(DateTime64(7, 'UTC'))")), "MergeTree", List.of("id"),
            "dpone.generation=g-1;operation=op-1"), TableDefinitions.table(d));
        assertNull(TableDefinitions.table(d.renamed("other", null)).comment());
    }

    @Test
    void anEngineOutsideTheMergeTreeFamilyBlocks() {
        TableDefinition d = new TableDefinition("a", "t", COLS, "Memory", List.of("id"), null);
        DponeException e = assertThrows(DponeException.class, () -> TableDefinitions.table(d));
        assertEquals(BlockerCode.PUBLICATION_ENGINE_INVALID.code(), e.blockers().get(0).code());
    }
}
