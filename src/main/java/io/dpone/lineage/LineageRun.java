package io.dpone.lineage;

import io.dpone.quality.GateResult;
import java.util.List;
import java.util.UUID;

/**
 * One full refresh or CDC tick as lineage sees it. {@code id} is the OpenLineage run id (a UUID, the same on START and
 * on COMPLETE or FAIL); {@code job} the serve job or stream name; the datasets are named by connection alias, never
 * by endpoint.
 */
public record LineageRun(UUID id, String job, String kind, Dataset source, Dataset target) {
    /**
     * A dataset: {@code alias} is the connection alias (the dataset namespace becomes {@code dpone:<alias>}), {@code
     * name} the table ({@code schema.table} on SQL Server, {@code database.table} in ClickHouse).
     */
    public record Dataset(String alias, String name) {
    }

    /** A column moved one-to-one: its name, its source type and the ClickHouse type it was written as. */
    public record Column(String name, String sourceType, String targetType) {
    }

    /**
     * How the run ended: the dpone run id, the columns (empty when the reader did not know them), the rows it
     * moved, every gate with its figures, and the blocker codes with the first blocker's message (FAIL only).
     */
    public record Outcome(String dponeRunId, List<Column> columns, long rows, List<GateResult> gates,
                          List<String> blockerCodes, String firstBlocker) {
        public Outcome {
            columns = List.copyOf(columns);
            gates = List.copyOf(gates);
            blockerCodes = List.copyOf(blockerCodes);
        }
    }
}
