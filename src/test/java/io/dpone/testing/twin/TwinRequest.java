package io.dpone.testing.twin;

import com.sun.net.httpserver.HttpExchange;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One request as ClickHouse's HTTP handler reads it: credentials from basic auth, {@code X-ClickHouse-User} /
 * {@code X-ClickHouse-Key} or the {@code user} / {@code password} parameters; the database and default format from
 * parameters or headers; every other URL parameter is a query setting.
 */
record TwinRequest(String user, String password, String database, String format, String queryId, boolean compress,
                   boolean decompress, String queryParam, Map<String, String> settings) {
    /** URL parameters that belong to the HTTP interface itself, not to the query's settings. */
    private static final Set<String> PROTOCOL = Set.of("query", "database", "default_format", "query_id", "compress",
        "decompress", "user", "password", "quota_key", "session_id", "session_check", "session_timeout", "buffer_size",
        "wait_end_of_query", "role", "stacktrace", "enable_http_compression", "http_headers_progress_interval_ms",
        "send_progress_in_http_headers", "http_wait_end_of_query", "http_response_buffer_size");

    static TwinRequest parse(HttpExchange exchange) {
        Map<String, String> params = params(exchange);
        var headers = exchange.getRequestHeaders();
        String user = params.getOrDefault("user", headers.getFirst("X-ClickHouse-User"));
        String password = params.getOrDefault("password", headers.getFirst("X-ClickHouse-Key"));
        String auth = headers.getFirst("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Basic ", 0, 6)) {
            String decoded = new String(Base64.getDecoder().decode(auth.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            user = colon < 0 ? decoded : decoded.substring(0, colon);
            password = colon < 0 ? "" : decoded.substring(colon + 1);
        }
        String database = params.getOrDefault("database", headers.getFirst("X-ClickHouse-Database"));
        String format = params.getOrDefault("default_format", headers.getFirst("X-ClickHouse-Format"));
        String queryId = params.getOrDefault("query_id", headers.getFirst("X-ClickHouse-Query-Id"));
        Map<String, String> settings = new LinkedHashMap<>();
        params.forEach((k, v) -> {
            if (!PROTOCOL.contains(k)) {
                settings.put(k, v);
            }
        });
        return new TwinRequest(user == null || user.isEmpty() ? "default" : user, password == null ? "" : password,
            database == null || database.isEmpty() ? "default" : database, format == null ? "TabSeparated" : format,
            queryId, "1".equals(params.get("compress")), "1".equals(params.get("decompress")), params.get("query"),
            settings);
    }

    /** The request's URL parameters, form-decoded, in order. */
    static Map<String, String> params(HttpExchange exchange) {
        Map<String, String> params = new LinkedHashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                params.put(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return params;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
