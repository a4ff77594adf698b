package io.dpone.testing.twin;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The twins' interserver fetch of one block: {@code GET /twin/replication/block?table=<uuid>&block=<id>} on the
 * twin of a replica that holds it (the origin first, then any other), as a replica fetches a part over a peer's
 * interserver HTTP port. Served from the holder's {@link TwinReplicatedTables} without credentials (the loopback
 * twins have no interserver credentials).
 */
final class TwinBlockFetch {
    static final String PATH = "/twin/replication/block";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TwinBlockFetch() {
    }

    /**
     * Fetches block {@code block} of table {@code uuid} into {@code dest} from a replica of {@code hosts} (replica
     * name to its twin's URL), {@code origin} first and never {@code self}; false when none serves it now.
     */
    static boolean fetch(Map<String, String> hosts, String origin, String self, String uuid, String block,
                         Path spool, Path dest) throws IOException, InterruptedException {
        List<String> order = new ArrayList<>();
        order.add(origin);
        hosts.keySet().stream().filter(r -> !r.equals(origin)).forEach(order::add);
        try {
            for (String replica : order) {
                String url = hosts.get(replica);
                if (replica.equals(self) || url == null || url.isEmpty()) {
                    continue;
                }
                URI uri = URI.create(url + PATH + "?table=" + enc(uuid) + "&block=" + enc(block));
                HttpResponse<Path> response;
                try {
                    response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
                        HttpResponse.BodyHandlers.ofFile(spool, StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING));
                } catch (IOException e) {
                    continue; // that replica's twin is down: try the next
                }
                if (response.statusCode() == 200) {
                    Files.createDirectories(dest.getParent());
                    Files.move(spool, dest, StandardCopyOption.REPLACE_EXISTING);
                    return true;
                }
            }
            return false;
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    /** Serves a block this twin holds: 200 with its bytes, 404 when it holds none, 400 for a malformed request. */
    static void serve(HttpExchange exchange, TwinReplicatedTables tables) throws IOException {
        try (exchange) {
            Map<String, String> params = TwinRequest.params(exchange);
            Path file;
            try {
                file = tables.block(params.getOrDefault("table", ""), params.getOrDefault("block", ""));
            } catch (IllegalArgumentException e) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            if (!Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            exchange.sendResponseHeaders(200, Files.size(file));
            try (InputStream in = Files.newInputStream(file); OutputStream out = exchange.getResponseBody()) {
                in.transferTo(out);
            }
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
