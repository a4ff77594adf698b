package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.artifact.TableDefinition;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders {@code CREATE TABLE} for a {@link TableDefinition}: quoted identifiers, an engine name validated as a
 * {@code *MergeTree} family name, the sort key, the generation marker as a quoted comment, and for non-replicated
 * engines {@code non_replicated_deduplication_window} so {@code insert_deduplication_token} deduplicates
 * (replicated engines deduplicate through Keeper by default).
 */
public final class TableDefinitionSql {
    private static final Pattern ENGINE = Pattern.compile("^[A-Za-z]*MergeTree$");
    /** Enough recent inserts to recognise a retried load of one artifact. */
    public static final int DEDUPLICATION_WINDOW = 1000;
    private static final Pattern TYPE = Pattern.compile("^[A-Za-z0-9_(), ']{1,200}$");

    private TableDefinitionSql() {
    }

    /** {@code CREATE TABLE db.t [ON CLUSTER c] (...) ENGINE = E() ORDER BY (...) [SETTINGS ...] COMMENT '...'}. */
    public static String create(TableDefinition d, String onCluster) {
        String engine = engine(d.engine());
        String columns = d.columns().stream().map(c -> ClickHouseSql.id(c.name()) + " " + type(c.type()))
            .collect(Collectors.joining(", "));
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(ClickHouseSql.table(d.database(), d.name()));
        if (onCluster != null) {
            sql.append(" ON CLUSTER ").append(ClickHouseSql.id(onCluster));
        }
        sql.append(" (").append(columns).append(") ENGINE = ").append(engine).append("()")
            .append(" ORDER BY (").append(ClickHouseSql.idList(d.orderBy())).append(")");
        if (!replicated(engine)) {
            sql.append(" SETTINGS non_replicated_deduplication_window = ").append(DEDUPLICATION_WINDOW);
        }
        if (d.marker() != null) {
            sql.append(" COMMENT ").append(ClickHouseSql.literal(d.marker().comment()));
        }
        return sql.toString();
    }

    /** The engine name when it is a {@code *MergeTree} family name; a typed blocker otherwise. */
    public static String engine(String engine) {
        if (engine == null || !ENGINE.matcher(engine).matches()) {
            throw new DponeException(BlockerCode.PUBLICATION_ENGINE_INVALID,
                "sink.options.physical_design.storage.clickhouse.engine",
                "the table engine must be a MergeTree family name");
        }
        return engine;
    }

    public static boolean replicated(String engine) {
        return engine.startsWith("Replicated");
    }

    /**
     * Column types come from the source type mapping; they are checked against a conservative character set
     * (letters, digits, parentheses, commas, spaces and quotes for time zones) so nothing else can be spliced.
     */
    static String type(String type) {
        if (type == null || !TYPE.matcher(type).matches() || type.chars().filter(ch -> ch == '\'').count() % 2 != 0) {
            throw new IllegalArgumentException("invalid ClickHouse column type");
        }
        return type;
    }
}
