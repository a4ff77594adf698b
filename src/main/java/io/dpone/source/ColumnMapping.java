package io.dpone.source;

import io.dpone.error.Blocker;
import java.util.List;

/**
 * How one column of a source table moves: its SQL Server type, whether it is a primary-key column and selected by
 * the manifest, the columns it is read as (one, or two for a spatial column or a sql_variant as text; none when
 * refused or not selected) with their ClickHouse types and policies, or the typed refusal with the way out.
 */
public record ColumnMapping(String name, String sourceType, boolean nullable, boolean primaryKey, boolean selected,
                            List<SourceColumn> reads, Blocker refusal) {
    public ColumnMapping {
        reads = List.copyOf(reads);
    }
}
