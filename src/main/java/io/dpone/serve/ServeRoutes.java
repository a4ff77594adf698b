package io.dpone.serve;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.camel.Processor;
import org.apache.camel.builder.RouteBuilder;

/**
 * The serve's own routes, added after the shipped and directory routes: one timer (interval) or quartz (cron)
 * route per job and CDC stream ({@code dpone_job_<name>}, {@code dpone_cdc_<name>}), one {@code direct:} route per
 * certification ({@code dpone_certify_<name>}) and, with reload on, the routes-directory rescan. Each is a normal
 * Camel route, so it has the standard route MBeans and route metrics too.
 */
final class ServeRoutes extends RouteBuilder {
    /** A route to add: its id, the consumer URI, and the step that does the work. */
    record Entry(String id, String uri, Processor step) {
    }

    private final List<Entry> entries;

    ServeRoutes(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    static String scheduleUri(String routeId, ServeConfig.Schedule s) {
        if (s.cron() != null) {
            return "quartz:dpone/" + routeId + "?cron=" + URLEncoder.encode(s.cron(), StandardCharsets.UTF_8)
                .replace("+", "%20") + "&stateful=true";
        }
        return "timer:" + routeId + "?period=" + s.every().toMillis() + "&delay=" + Math.max(1, s.startAfter().toMillis());
    }

    @Override
    public void configure() {
        for (Entry e : entries) {
            from(e.uri()).routeId(e.id()).process(e.step());
        }
    }
}
