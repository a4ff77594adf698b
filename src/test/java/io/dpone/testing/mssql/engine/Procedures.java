package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stored procedures, called over RPC ({@link TwinSession#call}) or as {@code EXEC} in a batch:
 * {@code sys.sp_cdc_enable_db}, {@code sys.sp_cdc_disable_db}, {@code sys.sp_cdc_enable_table},
 * {@code sys.sp_cdc_disable_table}, {@code sp_pkeys} and the twin's own {@code sp_twin_fault}.
 */
final class Procedures {
    private static final Pattern ARG = Pattern.compile(
        "(?is)\\s*(?:@(\\w+)\\s*=\\s*)?(N?'(?:[^']|'')*'|NULL|DEFAULT|-?[0-9]+(?:\\.[0-9]+)?|@\\w+|\\w+)\\s*(?:,|$)");
    /** Positional parameter names of each procedure, in declaration order. */
    private static final Map<String, List<String>> POSITIONS = Map.of(
        "sp_cdc_enable_table", List.of("source_schema", "source_name", "role_name", "capture_instance",
            "supports_net_changes", "index_name", "captured_column_list", "filegroup_name"),
        "sp_cdc_disable_table", List.of("source_schema", "source_name", "capture_instance"),
        "sp_pkeys", List.of("table_name", "table_owner", "table_qualifier"),
        "sp_twin_fault", List.of("drop_after_rows", "stall_ms", "error_after_rows", "clear"));

    private Procedures() {
    }

    /** The arguments of {@code EXEC proc <args>}: literals, or {@code @name} values of the request. */
    static List<Param> arguments(String text, Map<String, Object> values) throws SqlServerError {
        List<Param> out = new ArrayList<>();
        String rest = text.trim();
        Matcher m = ARG.matcher(rest);
        int at = 0;
        while (at < rest.length()) {
            if (!m.find(at) || m.start() != at) {
                throw SqlErrors.syntax(rest.substring(at).trim());
            }
            String name = m.group(1) == null ? "" : "@" + m.group(1);
            out.add(new Param(name, null, literal(m.group(2), values), false));
            at = m.end();
        }
        return out;
    }

    private static Object literal(String v, Map<String, Object> values) {
        if (v.equalsIgnoreCase("NULL") || v.equalsIgnoreCase("DEFAULT")) {
            return null;
        }
        if (v.startsWith("@")) {
            return values.get(v.substring(1).toLowerCase(Locale.ROOT));
        }
        if (v.startsWith("'") || v.startsWith("N'") || v.startsWith("n'")) {
            String body = v.substring(v.indexOf('\'') + 1, v.length() - 1);
            return body.replace("''", "'");
        }
        if (v.matches("-?[0-9]+")) {
            return Long.parseLong(v);
        }
        if (v.matches("-?[0-9.]+")) {
            return new BigDecimal(v);
        }
        return v; // a bare word is a string in EXEC arguments (EXEC sp_pkeys orders)
    }

    static void call(EngineSession s, String procedure, List<Param> params, Results out)
        throws IOException, SqlServerError {
        List<String> parts = Names.parts(procedure);
        String name = parts.get(parts.size() - 1).toLowerCase(Locale.ROOT);
        Map<String, Object> args = named(name, params);
        switch (name) {
            case "sp_cdc_enable_db" -> s.statement(() -> Cdc.enableDb(s.h2, true));
            case "sp_cdc_disable_db" -> s.statement(() -> Cdc.enableDb(s.h2, false));
            case "sp_cdc_enable_table" -> s.statement(() -> Cdc.enableTable(s, args));
            case "sp_cdc_disable_table" -> s.statement(() -> Cdc.disableTable(s, args));
            case "sp_pkeys" -> {
                s.statement(() -> Metadata.primaryKeys(s, text(args, "table_name"), text(args, "table_owner"),
                    text(args, "table_qualifier"), out));
                return;
            }
            case "sp_twin_fault" -> fault(args);
            default -> throw new SqlServerError(2812, 62, 16, "Could not find stored procedure '" + procedure + "'.");
        }
        out.done(-1);
    }

    private static Map<String, Object> named(String procedure, List<Param> params) {
        List<String> positions = POSITIONS.getOrDefault(procedure, List.of());
        Map<String, Object> args = new HashMap<>();
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            String key = p.name() != null && !p.name().isEmpty() ? p.name().replaceFirst("^@", "")
                : i < positions.size() ? positions.get(i) : "arg" + i;
            args.put(key.toLowerCase(Locale.ROOT), p.value());
        }
        return args;
    }

    private static void fault(Map<String, Object> args) {
        TwinFaults f = H2Backend.faults();
        if (number(args, "clear") != null && number(args, "clear") != 0) {
            f.clear();
        }
        if (number(args, "drop_after_rows") != null) {
            f.armDrop(number(args, "drop_after_rows").intValue());
        }
        if (number(args, "stall_ms") != null) {
            f.armStall(number(args, "stall_ms"));
        }
        if (number(args, "error_after_rows") != null) {
            f.armError(number(args, "error_after_rows").intValue());
        }
    }

    static String text(Map<String, Object> args, String name) {
        Object v = args.get(name);
        return v == null ? null : v.toString();
    }

    static Long number(Map<String, Object> args, String name) {
        Object v = args.get(name);
        return v == null ? null : v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim());
    }

    static Boolean bool(Map<String, Object> args, String name) {
        Object v = args.get(name);
        return v == null ? null : v instanceof Boolean b ? b : Long.parseLong(v.toString().trim()) != 0;
    }
}
