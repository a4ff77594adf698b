package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.mssql.CaptureInstanceTables;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.source.TablePatterns;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A multi-table stream's tables chosen by patterns ({@link CdcRunOptions.TableSelection}), resolved on every tick
 * against the source's capture instances ({@link CaptureInstanceTables}).
 *
 * <p><b>The naming rule.</b> {@code --target-template DB.NAME}: {@code DB} is an identifier (every log and the
 * stream's offset table live in it); {@code NAME} is made of identifier characters and the placeholders
 * {@code {schema}} and {@code {table}}, and holds {@code {table}} (default {@code {schema}_{table}_cdc}). A matched
 * table's log is the template with the placeholders replaced by its schema and table names as the source spells them;
 * the result must be an identifier ({@code ^[A-Za-z_][A-Za-z0-9_]*$}) and is quoted wherever it is used. Its unique
 * keys are its primary key in key order.
 *
 * <p><b>Every resolution is reported</b> ({@link Resolution#report()}, the tick report's {@code table_selection}): the
 * tables that matched and stream, the ones an exclude pattern left out (with the pattern), and, as typed
 * {@code cdc_runtime.table_not_streamable} blockers naming the table, the matched tables that cannot stream: no
 * primary key, no capture instance, a log name that is not an identifier, two tables on one log. Those do not stop
 * the others; a resolution with no streamable table does.
 */
public final class TableSelections {
    /** The default naming rule's name part. */
    public static final String DEFAULT_NAME = "{schema}_{table}_cdc";
    private static final Pattern NAME = Pattern.compile("(?:[A-Za-z0-9_]|\\{schema\\}|\\{table\\})+");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(schema|table)\\}");

    private TableSelections() {
    }

    /** The selection's problems ({@code cdc_runtime.invalid_argument}), added to {@code out}. */
    static void validate(CdcRunOptions.TableSelection s, List<Blocker> out) {
        if (s.include().isEmpty()) {
            out.add(invalid("--include-table", "a stream chosen by patterns needs at least one --include-table "
                + "pattern (schema.table or table, with * and ?)"));
        }
        try {
            TablePatterns.of(s.include(), s.exclude(), "--include-table", "--exclude-table");
        } catch (IllegalArgumentException e) {
            out.add(invalid(e.getMessage().startsWith("--exclude") ? "--exclude-table" : "--include-table",
                e.getMessage()));
        }
        validateTemplate(s.targetTemplate(), "--target-template", out);
    }

    /**
     * A naming template's problem ({@code cdc_runtime.invalid_argument} with {@code option} as subject): it must be
     * {@code DB.NAME}, {@code DB} an identifier, {@code NAME} identifier characters and the placeholders
     * {@code {schema}}, {@code {table}}, holding {@code {table}}.
     */
    public static void validateTemplate(String t, String option, List<Blocker> out) {
        int dot = t == null ? -1 : t.indexOf('.');
        if (t == null || dot < 0 || !CdcRunOptions.IDENTIFIER.matcher(t.substring(0, dot)).matches()
            || !NAME.matcher(t.substring(dot + 1)).matches() || !t.substring(dot + 1).contains("{table}")) {
            out.add(invalid(option, option + " must be DB.NAME: DB an identifier, NAME made of letters, digits, '_' "
                + "and the placeholders {schema} and {table}, holding {table} (e.g. analytics." + DEFAULT_NAME + ")"));
        }
    }

    /** The template's table name for {@code schema.table} ({@code db.name}), or null when it is not an identifier. */
    public static String target(String template, String schema, String table) {
        int dot = template.indexOf('.');
        Matcher m = PLACEHOLDER.matcher(template.substring(dot + 1));
        StringBuilder name = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(name, Matcher.quoteReplacement(m.group(1).equals("schema") ? schema : table));
        }
        m.appendTail(name);
        return CdcRunOptions.IDENTIFIER.matcher(name).matches() ? template.substring(0, dot) + "." + name : null;
    }

    /**
     * @param options  the stream's options, resolved: {@code tables} holds every streamable matched table
     * @param report   {@code table_selection} of the tick report
     * @param blocked  the matched tables that cannot stream, each a typed blocker naming it
     */
    public record Resolution(CdcRunOptions options, Map<String, Object> report, List<Blocker> blocked) {
    }

    /**
     * Resolves {@code options.selection()} on {@code source}. Throws {@code cdc_runtime.table_not_streamable} (with
     * every matched table's blocker) when no matched table can stream.
     */
    public static Resolution resolve(CdcRunOptions options, Connection source) {
        CdcRunOptions.TableSelection s = options.selection();
        TablePatterns patterns = TablePatterns.of(s.include(), s.exclude(), "--include-table", "--exclude-table");
        List<CaptureInstanceTables.Candidate> found = CaptureInstanceTables.match(source, patterns, s.exclude());
        List<Map<String, Object>> excluded = new ArrayList<>();
        List<Blocker> blocked = new ArrayList<>();
        List<CdcRunOptions.Table> tables = new ArrayList<>();
        Map<String, List<CaptureInstanceTables.Candidate>> byTarget = new LinkedHashMap<>();
        Map<CaptureInstanceTables.Candidate, String> targets = new HashMap<>();
        for (CaptureInstanceTables.Candidate c : found) {
            if (c.excludedBy() != null) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("table", c.name());
                e.put("pattern", c.excludedBy());
                excluded.add(e);
                continue;
            }
            String target = target(s.targetTemplate(), c.schema(), c.table());
            if (c.captureInstance() == null) {
                blocked.add(notStreamable(c, "no_capture_instance", "CDC is not enabled on " + c.name()
                    + " (no capture instance in cdc.change_tables); enable it with sys.sp_cdc_enable_table or "
                    + "exclude it with --exclude-table"));
            } else if (c.primaryKey().isEmpty()) {
                blocked.add(notStreamable(c, "no_primary_key", c.name() + " has no primary key: a stream chosen by "
                    + "patterns takes a table's primary key as its unique keys; add one, or name the table with "
                    + "--table and its unique keys"));
            } else if (target == null || c.primaryKey().stream()
                .anyMatch(k -> !CdcRunOptions.IDENTIFIER.matcher(k).matches())) {
                blocked.add(notStreamable(c, "target_name_invalid", "the log name --target-template forms for "
                    + c.name() + ", or one of its key columns, is not an identifier " + CdcRunOptions.IDENTIFIER
                    .pattern() + "; name the table with --table or exclude it"));
            } else {
                byTarget.computeIfAbsent(target.toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>()).add(c);
                targets.put(c, target);
            }
        }
        List<Map<String, Object>> matched = new ArrayList<>();
        for (List<CaptureInstanceTables.Candidate> same : byTarget.values()) {
            for (CaptureInstanceTables.Candidate c : same) {
                if (same.size() > 1) {
                    blocked.add(notStreamable(c, "target_collision", "--target-template maps " + same.stream()
                        .map(CaptureInstanceTables.Candidate::name).toList() + " to one log " + targets.get(c)));
                    continue;
                }
                tables.add(new CdcRunOptions.Table(c.schema(), c.table(), targets.get(c), c.primaryKey(),
                    c.captureInstance()));
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("table", c.name());
                m.put("capture_instance", c.captureInstance());
                m.put("target_dataset", targets.get(c));
                m.put("unique_keys", c.primaryKey());
                matched.add(m);
            }
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("include", s.include());
        report.put("exclude", s.exclude());
        report.put("target_template", s.targetTemplate());
        report.put("matched", matched);
        report.put("excluded", excluded);
        report.put("blocked", blocked.stream().map(b -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("code", b.code());
            m.put("table", b.details().get("table"));
            m.put("reason", b.details().get("reason"));
            m.put("message", b.message());
            return (Object) m;
        }).toList());
        if (tables.isEmpty()) {
            List<Blocker> all = new ArrayList<>(blocked);
            all.add(CdcBlockers.blocker(CdcBlockers.TABLE_NOT_STREAMABLE, "--include-table", "the patterns match no "
                + "table that can stream (" + found.size() + " matched, " + excluded.size() + " excluded, "
                + blocked.size() + " blocked); nothing was read", Map.of("reason", "no_table_matched")));
            throw new DponeException(all);
        }
        if (tables.size() > CdcRunOptions.MAX_TABLES) {
            throw new DponeException(invalid("--include-table", "the patterns match " + tables.size()
                + " streamable tables; a stream names at most " + CdcRunOptions.MAX_TABLES));
        }
        return new Resolution(options.toBuilder().tables(tables).build(), report, List.copyOf(blocked));
    }

    private static Blocker notStreamable(CaptureInstanceTables.Candidate c, String reason, String message) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("table", c.name());
        details.put("reason", reason);
        return CdcBlockers.blocker(CdcBlockers.TABLE_NOT_STREAMABLE, "--include-table", message, details);
    }

    private static Blocker invalid(String option, String message) {
        return CdcBlockers.blocker(CdcBlockers.INVALID_ARGUMENT, option, message);
    }
}
