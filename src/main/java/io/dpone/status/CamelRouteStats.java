package io.dpone.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.camel.CamelContext;
import org.apache.camel.api.management.ManagedCamelContext;
import org.apache.camel.api.management.mbean.ManagedProcessorMBean;
import org.apache.camel.api.management.mbean.ManagedRouteMBean;

/**
 * The routes loaded in a Camel context and their steps, with the statistics Camel's JMX beans keep
 * ({@code org.apache.camel:type=routes} and {@code type=processors}): what hawtio would show, read in-process.
 */
public final class CamelRouteStats {
    private CamelRouteStats() {
    }

    /** Every route of {@code context}, by id, with its steps in route order; empty when JMX is off. */
    public static List<StatusSnapshot.Route> of(CamelContext context) {
        ManagedCamelContext managed = context.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        if (managed == null) {
            return List.of();
        }
        Map<String, List<StatusSnapshot.Step>> steps = processors(context);
        List<StatusSnapshot.Route> out = new ArrayList<>();
        List<ManagedRouteMBean> routes = new ArrayList<>(managed.getManagedRoutes());
        routes.sort(Comparator.comparing(ManagedRouteMBean::getRouteId));
        for (ManagedRouteMBean r : routes) {
            List<StatusSnapshot.Step> list = steps.getOrDefault(r.getRouteId(), List.of());
            out.add(new StatusSnapshot.Route(r.getRouteId(), r.getState(), r.getExchangesTotal(),
                r.getExchangesFailed(), r.getExchangesInflight(), r.getMeanProcessingTime(),
                r.getLastProcessingTime(), list));
        }
        return out;
    }

    /** The context's processor beans grouped by route, in route order (their index). */
    private static Map<String, List<StatusSnapshot.Step>> processors(CamelContext context) {
        Map<String, List<Indexed>> byRoute = new TreeMap<>();
        var agent = context.getManagementStrategy().getManagementAgent();
        MBeanServer server = agent == null ? null : agent.getMBeanServer();
        if (server == null) {
            return Map.of();
        }
        try {
            for (ObjectName name : server.queryNames(new ObjectName(agent.getMBeanObjectDomainName()
                + ":type=processors,*"), null)) {
                ManagedProcessorMBean p = JMX.newMBeanProxy(server, name, ManagedProcessorMBean.class);
                try {
                    if (context.getManagementName().equals(p.getCamelManagementName())) {
                        byRoute.computeIfAbsent(p.getRouteId(), k -> new ArrayList<>()).add(new Indexed(
                            p.getIndex() == null ? 0 : p.getIndex(), new StatusSnapshot.Step(p.getProcessorId(),
                                p.getProcessorName(), p.getExchangesTotal(), p.getExchangesFailed(),
                                p.getMeanProcessingTime(), p.getMaxProcessingTime(), p.getTotalProcessingTime())));
                    }
                } catch (RuntimeException gone) { // unregistered meanwhile (a route file was reloaded)
                    continue;
                }
            }
        } catch (javax.management.MalformedObjectNameException e) {
            return Map.of();
        }
        Map<String, List<StatusSnapshot.Step>> out = new TreeMap<>();
        byRoute.forEach((route, list) -> out.put(route, list.stream().sorted(Comparator.comparingInt(Indexed::index))
            .map(Indexed::step).toList()));
        return out;
    }

    private record Indexed(int index, StatusSnapshot.Step step) {
    }
}
