package io.dpone.status;

import io.dpone.connect.Redactor;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status page's two read-only routes on the management HTTP server: {@code GET <base>} renders the page, and
 * {@code GET <base>/evidence/<run id>/<file>} serves an evidence file of a run {@link RunHistory} knows, by its
 * registered name: the request names a run and a name, never a path, and the file goes out through the redaction layer.
 * Both run off the event loop; any other method is refused by the router (405).
 */
public final class StatusHttp {
    /** An evidence file larger than this is not served (reports and journals are a few KiB). */
    static final long MAX_EVIDENCE_BYTES = 8L * 1024 * 1024;
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
        + "frame-ancestors 'none'";
    private static final Logger LOG = LoggerFactory.getLogger(StatusHttp.class);

    private final String base;
    private final StatusPage page;
    private final Supplier<StatusSnapshot> snapshot;
    private final RunHistory history;

    public StatusHttp(String base, Supplier<StatusSnapshot> snapshot, RunHistory history) {
        this.base = base;
        this.page = new StatusPage(base);
        this.snapshot = snapshot;
        this.history = history;
    }

    /** Adds the routes to {@code router} (the management server's). */
    public void mount(Router router) {
        router.route(HttpMethod.GET, base).blockingHandler(this::page, false);
        router.route(HttpMethod.GET, base + "/evidence/:run/:file").blockingHandler(this::evidence, false);
    }

    private void page(RoutingContext ctx) {
        String html;
        try {
            html = page.render(snapshot.get());
        } catch (RuntimeException e) {
            LOG.error("status page: {}", Redactor.global().describe(e));
            send(ctx, 500, "text/plain; charset=utf-8", "the status page could not be rendered; see the log");
            return;
        }
        send(ctx, 200, "text/html; charset=utf-8", html);
    }

    private void evidence(RoutingContext ctx) {
        String run = ctx.pathParam("run");
        String name = ctx.pathParam("file");
        Optional<Path> file = run == null || name == null ? Optional.empty() : history.evidence(run, name);
        if (file.isEmpty()) {
            send(ctx, 404, "text/plain; charset=utf-8", "no evidence file of that name for a run this process knows");
            return;
        }
        Path f = file.get();
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                send(ctx, 404, "text/plain; charset=utf-8", "the evidence file is gone (the run's state was cleaned)");
                return;
            }
            if (Files.size(f) > MAX_EVIDENCE_BYTES) {
                send(ctx, 413, "text/plain; charset=utf-8", "the evidence file is larger than the page serves ("
                    + MAX_EVIDENCE_BYTES / (1024 * 1024) + " MiB); read it in the state directory");
                return;
            }
            String text = Redactor.global().redact(Files.readString(f));
            send(ctx, 200, (name.endsWith(".json") ? "application/json" : "text/plain") + "; charset=utf-8", text);
        } catch (IOException | RuntimeException e) {
            send(ctx, 500, "text/plain; charset=utf-8", "the evidence file could not be read ("
                + e.getClass().getSimpleName() + ")");
        }
    }

    private static void send(RoutingContext ctx, int status, String type, String body) {
        ctx.response().setStatusCode(status)
            .putHeader("Content-Type", type)
            .putHeader("Cache-Control", "no-store")
            .putHeader("X-Content-Type-Options", "nosniff")
            .putHeader("Content-Security-Policy", CSP)
            .putHeader("Referrer-Policy", "no-referrer")
            .end(body);
    }
}
