package io.dpone.cdc.mssql;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.source.SourceCatalog;
import io.dpone.source.TablePatterns;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The source tables a multi-table stream's include patterns match, resolved against SQL Server CDC's capture
 * instances: the user tables of the database ({@link SourceCatalog}: {@code sys.tables} with {@code cdc.change_tables}
 * on SQL Server, the emulation's tables on H2), each with its capture instances and its primary key. A table an
 * include pattern matches is a candidate; an exclude pattern it also matches says why it is left out. Nothing is
 * written; the catalogue is read on every call, so a capture instance enabled since the last tick is found.
 */
public final class CaptureInstanceTables {
    private CaptureInstanceTables() {
    }

    /**
     * A table an include pattern matched.
     *
     * @param captureInstance the capture instance to read (the one with the lowest start LSN when the table has two:
     *                        the reader hands over to the later one itself), or null when CDC is not enabled on it
     * @param primaryKey      its primary-key columns in key order (empty: none)
     * @param excludedBy      the exclude pattern it also matches, or null
     */
    public record Candidate(String schema, String table, String captureInstance, List<String> primaryKey,
                            String excludedBy) {
        public Candidate {
            primaryKey = List.copyOf(primaryKey);
        }

        public String name() {
            return schema + "." + table;
        }
    }

    /** Every table of the source the include patterns match, in catalogue order (schema, then table). */
    public static List<Candidate> match(Connection source, TablePatterns patterns, List<String> excludePatterns) {
        List<Candidate> out = new ArrayList<>();
        for (SourceCatalog.Table t : SourceCatalog.of(source).list().tables()) {
            if (!patterns.included(t.schema(), t.name())) {
                continue;
            }
            int excluded = patterns.excludedBy(t.schema(), t.name());
            if (excluded >= 0) {
                out.add(new Candidate(t.schema(), t.name(), null, List.of(), excludePatterns.get(excluded)));
                continue;
            }
            out.add(new Candidate(t.schema(), t.name(), first(source, t.captureInstances()),
                primaryKey(source, t.schema(), t.name()), null));
        }
        return out;
    }

    /** The instance with the lowest start LSN ({@code sys.fn_cdc_get_min_lsn}); null when there is none. */
    private static String first(Connection source, List<String> instances) {
        if (instances.size() < 2) {
            return instances.isEmpty() ? null : instances.get(0);
        }
        String first = null;
        Lsn lowest = null;
        for (String ci : instances) {
            try {
                Lsn min = ChangeTableSql.lsn(source, ChangeTableSql.MIN_LSN, ci);
                if (min != null && !min.isZero() && (lowest == null || min.compareTo(lowest) < 0)) {
                    lowest = min;
                    first = ci;
                }
            } catch (SQLException e) {
                throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.cdc." + ci,
                    "cannot read the minimum LSN of capture instance " + ci + " (SQLState " + e.getSQLState() + ")");
            }
        }
        return first;
    }

    private static List<String> primaryKey(Connection source, String schema, String table) {
        try {
            return io.dpone.source.PrimaryKeys.of(source.getMetaData(), schema, table);
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.catalog",
                "cannot read the primary key of " + schema + "." + table + " (SQLState " + e.getSQLState() + ")");
        }
    }
}
