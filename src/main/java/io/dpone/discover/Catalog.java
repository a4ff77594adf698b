package io.dpone.discover;

import io.dpone.error.Blocker;
import java.util.List;

/**
 * The {@code dpone.catalog.v1} document {@code dpone discover} writes as {@code catalog.json} (JSON Schema:
 * {@code docs/catalog.schema.json}): every table of the source that the patterns select, with its columns, keys,
 * size estimates, CDC state, verdict and recommendation, and the files discover generated with their digests (the
 * record that lets a rerun tell a hand-edited file from its own; docs/discover.md).
 */
public record Catalog(String schema, String dponeVersion, String sourceAlias, String sinkAlias, String targetDatabase,
                      List<String> include, List<String> exclude, Provenance provenance, Counts counts,
                      List<TableEntry> tables, List<String> excludedTables, List<FileEntry> files) {
    public static final String SCHEMA = "dpone.catalog.v1";

    /** Where each fact came from on this source (null: the catalogue could not say). */
    public record Provenance(String tables, String estimatedRows, String estimatedBytes, String cdc,
                             String changeTracking) {
    }

    /** Tables by verdict. */
    public record Counts(int tables, int exact, int policy, int blocked, int excluded, int manifests) {
    }

    /**
     * One table. {@code verdict}: {@code exact} (moves as is), {@code policy} (moves under the value policy its
     * manifest declares), {@code blocked} (cannot move as is: {@code blockers} say why and the way out).
     */
    public record TableEntry(String schema, String name, String verdict, List<ColumnEntry> columns,
                             List<String> primaryKey, List<List<String>> uniqueKeys, Long estimatedRows,
                             Long estimatedBytes, Cdc cdc, Recommendation recommended, Target target,
                             List<Blocker> blockers, List<String> notes, String manifest) {
    }

    /**
     * One column. {@code verdict}: {@code exact}; {@code converted} (read through a server-side conversion);
     * {@code range_checked} (a value outside ClickHouse's range is refused at run time unless a policy is declared);
     * {@code policy} (moves only under the policy named in its targets); {@code refused} ({@code refusal} says why).
     */
    public record ColumnEntry(String name, String sourceType, boolean nullable, boolean primaryKey, String verdict,
                              List<ColumnTarget> targets, Blocker refusal) {
    }

    /** A ClickHouse column the source column lands as, with the value policy in force. */
    public record ColumnTarget(String name, String clickhouseType, String policy) {
    }

    /** CDC and Change Tracking as the catalogue shows them ({@code changeTracking} null: unknown on this source). */
    public record Cdc(boolean trackedByCdc, List<String> captureInstances, Boolean changeTracking) {
    }

    /**
     * How discover proposes to move the table: the transfer route, the mode ({@code full_refresh}, or a snapshot
     * handed over to the table's {@code mssql_cdc} / {@code mssql_change_tracking} stream), the source readers and
     * the target's sort key, and why.
     */
    public record Recommendation(String route, String mode, int parallelReaders, List<String> orderBy,
                                 List<String> reasons) {
    }

    /** The ClickHouse table the manifest loads. */
    public record Target(String database, String table) {
    }

    /**
     * A file discover generated: its path under the output directory, its kind, the SHA-256 of the content discover
     * generated this time, and what happened to it: {@code written} (new), {@code updated} (replaced an untouched
     * earlier generation), {@code unchanged}, {@code kept_edited} (the file differs from what discover last wrote,
     * so it was kept and the new content written to {@code proposal}), {@code removed} (an untouched file for a
     * table no longer generated), {@code kept_orphan} (an edited file for a table no longer generated).
     */
    public record FileEntry(String path, String kind, String table, String sha256, String state, String proposal) {
    }
}
