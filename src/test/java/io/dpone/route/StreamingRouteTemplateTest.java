package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.camel.model.Model;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.junit.jupiter.api.Test;

/**
 * The three streaming routes are one route template ({@code routes/streaming_load.yaml}) with the chunk format as its
 * parameter, and keep the route ids, step ids and JMX processor ids they had as three copied files (the ids below are
 * those of the copies, with the one prepare step since split into seven).
 */
class StreamingRouteTemplateTest {
    private static final List<String> ROUTES = List.of("typed_raw_streaming", "typed_binary_streaming",
        "direct_push_columnar.chunked");
    /** Every node of the route, depth first, as the copied files named them. */
    private static final List<String> STEPS = List.of("set_format", "open_engine", "detect_resume",
        "published_before", "resume_after_publish", "restore_gates", "load_and_publish", "open_source", "prepare_sink",
        "start_encoder", "create_staging", "staging_stats", "chunks", "load_chunk", "quality_gates", "publish",
        "drop_predecessor", "cleanup_audit");
    /** The processors JMX lists for the route (a choice's branches are not processors of their own). */
    private static final List<String> JMX = List.of("chunks", "cleanup_audit", "create_staging", "detect_resume",
        "drop_predecessor", "load_chunk", "open_engine", "open_source", "prepare_sink", "publish", "published_before",
        "quality_gates", "restore_gates", "set_format", "staging_stats", "start_encoder");

    @Test
    void theThreeRoutesKeepTheirIdsStepIdsAndFormat() throws Exception {
        try (DponeCamel camel = DponeCamel.start(null, true)) {
            Model model = camel.context().getCamelContextExtension().getContextPlugin(Model.class);
            for (String route : ROUTES) {
                RouteDefinition def = model.getRouteDefinition(route);
                List<String> ids = new ArrayList<>();
                collect(def.getOutputs(), ids);
                ids.removeIf(id -> id.startsWith("error_policy.")); // the shared error policy's steps
                String prefix = def.getNodePrefixId() == null ? "" : def.getNodePrefixId();
                ids.replaceAll(id -> id.startsWith("error_policy.") ? id : prefix + id);
                assertEquals(STEPS.stream().map(s -> route + "." + s).toList(), ids, route);
                assertEquals("direct://" + route, camel.context().getRoute(route).getEndpoint().getEndpointUri());
            }
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            String name = camel.context().getManagementName();
            for (String route : ROUTES) {
                TreeSet<String> seen = new TreeSet<>();
                for (ObjectName o : jmx.queryNames(new ObjectName("org.apache.camel:context=" + name
                    + ",type=processors,*"), null)) {
                    if (route.equals(jmx.getAttribute(o, "RouteId"))) {
                        seen.add((String) jmx.getAttribute(o, "ProcessorId"));
                    }
                }
                assertEquals(JMX.stream().map(s -> route + "." + s).toList(), List.copyOf(seen), route);
            }
        }
    }

    @Test
    void eachRouteSetsItsOwnFormat() throws Exception {
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            List<String> formats = new ArrayList<>();
            for (String route : ROUTES) {
                org.apache.camel.Exchange e = new org.apache.camel.support.DefaultExchange(camel.context());
                camel.context().getProcessor(route + ".set_format").process(e);
                formats.add(e.getProperty(RouteProperties.FORMAT, String.class));
            }
            assertEquals(List.of("tsv", "rowbinary", "parquet"), formats);
        }
    }

    private static void collect(List<ProcessorDefinition<?>> steps, List<String> ids) {
        for (ProcessorDefinition<?> step : steps) {
            ids.add(step.getId());
            if (step instanceof org.apache.camel.model.ChoiceDefinition choice) {
                for (var when : choice.getWhenClauses()) {
                    ids.add(when.getId());
                    collect(when.getOutputs(), ids);
                }
                if (choice.getOtherwise() != null) {
                    ids.add(choice.getOtherwise().getId());
                    collect(choice.getOtherwise().getOutputs(), ids);
                }
            } else {
                collect(step.getOutputs(), ids);
            }
        }
    }
}
