package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements the twin answers itself instead of handing them to H2: session options, transaction control,
 * {@code USE}, {@code CREATE DATABASE}, table DDL (to keep the declared types), Change Tracking DDL,
 * {@code IF OBJECT_ID(..) IS [NOT] NULL <statement>} and {@code EXEC}. Anything else is translated and run by H2.
 */
final class Commands {
    private static final Pattern IMPLICIT = Pattern.compile(
        "(?is)\\s*SET\\s+IMPLICIT_TRANSACTIONS\\s+(ON|OFF)\\b\\s*(.*)");
    private static final Pattern ISOLATION = Pattern.compile(
        "(?is)\\s*SET\\s+TRANSACTION\\s+ISOLATION\\s+LEVEL\\s+(READ\\s+UNCOMMITTED|READ\\s+COMMITTED|REPEATABLE\\s+READ"
            + "|SERIALIZABLE|SNAPSHOT)\\s*");
    private static final Pattern NOCOUNT = Pattern.compile("(?is)\\s*SET\\s+NOCOUNT\\s+(ON|OFF)\\s*");
    private static final Pattern SET = Pattern.compile("(?is)\\s*SET\\s+[A-Z_]+(\\s*,\\s*[A-Z_]+)*\\s+(ON|OFF|\\S+)\\s*");
    private static final Pattern IF_TRANCOUNT = Pattern.compile(
        "(?is)\\s*IF\\s+@@TRANCOUNT\\s*>\\s*0\\s+(COMMIT|ROLLBACK)(\\s+TRAN(SACTION)?)?(\\s+WITH\\s*\\(.*\\))?\\s*");
    private static final Pattern BEGIN = Pattern.compile("(?is)\\s*BEGIN\\s+TRAN(SACTION)?(\\s+\\S+)?\\s*");
    private static final Pattern END = Pattern.compile("(?is)\\s*(COMMIT|ROLLBACK)(\\s+(TRAN|TRANSACTION|WORK))?(\\s+\\S+)?\\s*");
    private static final Pattern USE = Pattern.compile("(?is)\\s*USE\\s+(" + SqlText.NAME + ")\\s*");
    private static final Pattern CREATE_DB = Pattern.compile("(?is)\\s*CREATE\\s+DATABASE\\s+(" + SqlText.NAME + ")\\s*");
    private static final Pattern CREATE_TABLE = Pattern.compile("(?is)\\s*CREATE\\s+TABLE\\s.*");
    private static final Pattern CREATE_TYPE = Pattern.compile("(?is)\\s*CREATE\\s+TYPE\\s+(" + SqlText.NAME
        + ")\\s+FROM\\s+(.+?)(\\s+NOT\\s+NULL|\\s+NULL)?\\s*");
    private static final Pattern DROP_TABLE = Pattern.compile("(?is)\\s*DROP\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?(.+?)\\s*");
    private static final Pattern ALTER_ADD = Pattern.compile("(?is)\\s*ALTER\\s+TABLE\\s+(" + SqlText.NAME + ")\\s+ADD\\s+(.+)");
    private static final Pattern ALTER_DROP_COLUMN = Pattern.compile(
        "(?is)\\s*ALTER\\s+TABLE\\s+(" + SqlText.NAME + ")\\s+DROP\\s+COLUMN\\s+(" + SqlText.NAME + ")\\s*");
    private static final Pattern IF_OBJECT = Pattern.compile(
        "(?is)\\s*IF\\s+(OBJECT_ID\\s*\\([^)]*\\)\\s+IS\\s+(NOT\\s+)?NULL)\\s+(.+)");
    private static final Pattern EXEC = Pattern.compile("(?is)\\s*EXEC(UTE)?\\s+(" + SqlText.NAME + ")(\\s+(.*))?");
    private static final Pattern PRINT = Pattern.compile("(?is)\\s*PRINT\\s.*");

    private Commands() {
    }

    static void run(EngineSession s, String sql, Map<String, Object> values, Results out)
        throws IOException, SqlServerError {
        Matcher m;
        if ((m = EngineSession.match(IMPLICIT, sql)) != null) {
            s.implicitTransactions = m.group(1).equalsIgnoreCase("ON");
            out.done(-1);
            // mssql-jdbc's setAutoCommit(true) sends "set implicit_transactions off IF @@TRANCOUNT > 0 COMMIT TRAN "
            String rest = sql.substring(m.start(2), m.end(2));
            if (!rest.isBlank()) {
                run(s, rest, values, out);
            }
        } else if ((m = EngineSession.match(ISOLATION, sql)) != null) {
            isolation(s, m.group(1).toUpperCase(Locale.ROOT).replaceAll("\\s+", " "));
            out.done(-1);
        } else if ((m = EngineSession.match(NOCOUNT, sql)) != null) {
            s.nocount = m.group(1).equalsIgnoreCase("ON");
            out.done(-1);
        } else if (EngineSession.match(SET, sql) != null) {
            out.done(-1); // ANSI_NULLS, QUOTED_IDENTIFIER, TEXTSIZE, LOCK_TIMEOUT...: accepted, not modelled
        } else if ((m = EngineSession.match(IF_TRANCOUNT, sql)) != null) {
            if (s.trancount > 0) {
                if (m.group(1).equalsIgnoreCase("COMMIT")) {
                    s.commit();
                } else {
                    s.rollback();
                }
            }
            out.done(-1);
        } else if (EngineSession.match(BEGIN, sql) != null) {
            s.trancount++;
            out.done(-1);
        } else if ((m = EngineSession.match(END, sql)) != null) {
            endTransaction(s, m.group(1).equalsIgnoreCase("COMMIT"));
            out.done(-1);
        } else if ((m = EngineSession.match(USE, sql)) != null) {
            use(s, sql.substring(m.start(1), m.end(1)));
            out.done(-1);
        } else if ((m = EngineSession.match(CREATE_DB, sql)) != null) {
            s.backend.create(Names.parts(sql.substring(m.start(1), m.end(1))).get(0));
            out.done(-1);
        } else if ((m = EngineSession.match(CREATE_TYPE, sql)) != null) {
            Names.Table name = Names.table(sql.substring(m.start(1), m.end(1)));
            String base = sql.substring(m.start(2), m.end(2));
            boolean notNull = m.group(3) != null && m.group(3).trim().toUpperCase(Locale.ROOT).startsWith("NOT");
            s.statement(() -> TwinCatalog.createAlias(s.h2, new TwinCatalog.Alias(name.schema(), name.name(),
                SqlType.parse(base.replace("[", "").replace("]", "")), notNull)));
            out.done(-1);
        } else if (EngineSession.match(CREATE_TABLE, sql) != null) {
            s.statement(sql, () -> createTable(s, sql));
            out.done(-1);
        } else if ((m = EngineSession.match(DROP_TABLE, sql)) != null) {
            String list = sql.substring(m.start(2), m.end(2));
            boolean ifExists = m.group(1) != null;
            s.statement(() -> dropTables(s, list, ifExists));
            out.done(-1);
        } else if ((m = EngineSession.match(ALTER_DROP_COLUMN, sql)) != null) {
            Names.Table t = Names.table(sql.substring(m.start(1), m.end(1)));
            String column = Names.parts(sql.substring(m.start(2), m.end(2))).get(0);
            s.statement(() -> {
                ddl(s.h2, "ALTER TABLE " + t.h2() + " DROP COLUMN " + Names.quote(column));
                // a sql_variant's invisible companion goes with it
                ddl(s.h2, "ALTER TABLE " + t.h2() + " DROP COLUMN IF EXISTS "
                    + Names.quote(TableDdl.variantTypeColumn(column)));
                TwinCatalog.drop(s.h2, t, column);
                Cdc.rebindTrigger(s.h2, t);
            });
            out.done(-1);
        } else if (Permissions.matches(sql)) {
            s.statement(() -> Permissions.run(s, sql));
            out.done(-1);
        } else if (ChangeTracking.isDdl(sql)) {
            s.statement(() -> ChangeTracking.ddl(s, sql));
            out.done(-1);
        } else if ((m = EngineSession.match(ALTER_ADD, sql)) != null) {
            Names.Table t = Names.table(sql.substring(m.start(1), m.end(1)));
            String defs = sql.substring(m.start(2), m.end(2));
            s.statement(() -> addColumns(s, t, defs));
            out.done(-1);
        } else if ((m = EngineSession.match(IF_OBJECT, sql)) != null) {
            String condition = sql.substring(m.start(1), m.end(1));
            String then = sql.substring(m.start(3), m.end(3));
            if (condition(s, condition)) {
                run(s, then, values, out);
            } else {
                out.done(-1);
            }
        } else if ((m = EngineSession.match(EXEC, sql)) != null) {
            String procedure = sql.substring(m.start(2), m.end(2));
            String args = m.group(3) == null ? "" : sql.substring(m.start(4), m.end(4));
            Procedures.call(s, procedure, Procedures.arguments(args, values), out);
        } else if (EngineSession.match(PRINT, sql) != null) {
            out.done(-1);
        } else {
            s.statement(sql, () -> {
                Translation.Translated t = Translation.translate(s, Inserts.prepare(s, sql, values));
                s.runH2(t.sql(), t.names(), values, out);
            });
        }
    }

    private static void isolation(EngineSession s, String level) throws SqlServerError {
        int jdbc = switch (level) {
            case "READ UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
            case "REPEATABLE READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            case "SERIALIZABLE" -> Connection.TRANSACTION_SERIALIZABLE;
            // SNAPSHOT: H2's MVStore reads committed snapshots per statement; READ COMMITTED is the nearest level
            default -> Connection.TRANSACTION_READ_COMMITTED;
        };
        try {
            s.h2.setTransactionIsolation(jdbc);
        } catch (SQLException e) {
            throw SqlErrors.of(e, "SET TRANSACTION ISOLATION LEVEL");
        }
    }

    private static void endTransaction(EngineSession s, boolean commit) throws SqlServerError {
        if (s.trancount == 0) {
            throw commit
                ? new SqlServerError(3902, 1, 16, "The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.")
                : new SqlServerError(3903, 1, 16, "The ROLLBACK TRANSACTION request has no corresponding BEGIN "
                + "TRANSACTION.");
        }
        if (!commit) {
            s.rollback();
        } else if (--s.trancount == 0) {
            s.commit();
        }
    }

    private static void use(EngineSession s, String name) throws SqlServerError {
        TwinDatabase target;
        try {
            target = s.backend.database(Names.parts(name).get(0));
        } catch (SqlServerError e) {
            throw new SqlServerError(911, 1, 16, "Database '" + Names.parts(name).get(0) + "' does not exist. Make "
                + "sure that the name is entered correctly.");
        }
        s.use(target);
    }

    static void ddl(Connection c, String h2) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(h2);
        }
    }

    private static void createTable(EngineSession s, String sql) throws SQLException, SqlServerError {
        Names.Table t = TableDdl.createTarget(sql);
        TableDdl.Definition d = TableDdl.create(sql, declared -> TwinCatalog.alias(s.h2, declared));
        ddl(s.h2, "CREATE TABLE " + t.h2() + " (" + String.join(", ", d.h2Elements()) + ")");
        TwinCatalog.drop(s.h2, t, null);
        TwinCatalog.record(s.h2, t, d.columns());
        computed(s, t, d.computed());
        rowversion(s, t, d.columns());
    }

    private static void addColumns(EngineSession s, Names.Table t, String defs) throws SQLException, SqlServerError {
        java.util.List<String> existing = Metadata.columnNames(s.h2, t.schema(), t.name());
        TableDdl.Definition d = TableDdl.elements(TableDdl.split(defs), TwinCatalog.nextOrdinal(s.h2, t),
            declared -> TwinCatalog.alias(s.h2, declared), existing.isEmpty() ? null : existing.get(existing.size() - 1));
        for (String e : d.h2Elements()) {
            ddl(s.h2, "ALTER TABLE " + t.h2() + " ADD (" + e + ")");
        }
        TwinCatalog.record(s.h2, t, d.columns());
        computed(s, t, d.computed());
        rowversion(s, t, d.columns());
        Cdc.rebindTrigger(s.h2, t);
    }

    /**
     * Adds computed columns once the stored ones exist: H2 types the expression ({@code SELECT expr FROM t}), except
     * that {@code UPPER/LOWER/LTRIM/RTRIM/TRIM(column)} keeps the column's declared type, as SQL Server types it
     * (H2 would widen it to an unbounded varchar).
     */
    private static void computed(EngineSession s, Names.Table t, java.util.List<TableDdl.Computed> computed)
        throws SQLException, SqlServerError {
        if (computed.isEmpty()) {
            return;
        }
        java.util.List<TwinCatalog.Column> recorded = new java.util.ArrayList<>();
        for (TableDdl.Computed c : computed) {
            String expr = Translation.translate(s, c.expression()).sql();
            SqlType type;
            Matcher same = SAME_TYPE.matcher(SqlText.mask(c.expression()));
            TwinCatalog.Column argument = same.matches() ? TwinCatalog.columns(s.h2, t.schema(), t.name())
                .get(Names.parts(c.expression().substring(same.start(1), same.end(1))).get(0)
                    .toLowerCase(Locale.ROOT)) : null;
            if (argument != null) {
                type = argument.type();
            } else {
                try (var st = s.h2.prepareStatement("SELECT " + expr + " FROM " + t.h2() + " WHERE 1 = 0");
                     var rs = st.executeQuery()) {
                    type = H2Types.derived(rs.getMetaData(), 1);
                }
            }
            ddl(s.h2, "ALTER TABLE " + t.h2() + " ADD COLUMN " + Names.quote(c.name()) + " " + H2Types.h2(type)
                + " GENERATED ALWAYS AS (" + expr + ")" + (c.after() == null ? " FIRST"
                : " AFTER " + Names.quote(c.after())));
            recorded.add(new TwinCatalog.Column(c.name(), c.ordinal(), type, false, null, c.expression(), false));
        }
        TwinCatalog.record(s.h2, t, recorded);
    }

    private static final Pattern SAME_TYPE = Pattern.compile("(?is)\\s*(?:UPPER|LOWER|LTRIM|RTRIM|TRIM)\\s*\\(\\s*("
        + SqlText.NAME + ")\\s*\\)\\s*");

    /** A table with a rowversion or xml column gets the trigger that stamps / re-serialises it on every write. */
    private static void rowversion(EngineSession s, Names.Table t, java.util.List<TwinCatalog.Column> columns)
        throws SQLException {
        if (columns.stream().anyMatch(c -> c.type().kind() == SqlType.Kind.ROWVERSION
            || c.type().kind() == SqlType.Kind.XML)) {
            ddl(s.h2, "CREATE TRIGGER IF NOT EXISTS " + Names.quote(t.schema()) + "."
                + Names.quote("twin_before_write_" + t.name()) + " BEFORE INSERT, UPDATE ON " + t.h2()
                + " FOR EACH ROW CALL \"" + BeforeWriteTrigger.class.getName() + "\"");
        }
    }

    private static void dropTables(EngineSession s, String list, boolean ifExists) throws SQLException, SqlServerError {
        for (String name : TableDdl.split(list)) {
            Names.Table t = Names.table(name);
            if (TwinFunctions.objectId(s.h2, t.toString(), "U") == null) {
                if (ifExists) {
                    continue;
                }
                throw new SqlServerError(3701, 5, 11, "Cannot drop the table '" + name.trim() + "', because it does "
                    + "not exist or you do not have permission.");
            }
            ChangeTracking.forget(s.h2, t);
            Cdc.forget(s.h2, t);
            ddl(s.h2, "DROP TABLE " + t.h2());
            TwinCatalog.drop(s.h2, t, null);
        }
    }

    private static boolean condition(EngineSession s, String condition) throws SqlServerError {
        Translation.Translated t = Translation.translate(s, "SELECT CASE WHEN " + condition + " THEN 1 ELSE 0 END");
        try (var st = s.h2.prepareStatement(t.sql()); var rs = st.executeQuery()) {
            rs.next();
            return rs.getInt(1) == 1;
        } catch (SQLException e) {
            throw SqlErrors.of(e, condition);
        }
    }

}
