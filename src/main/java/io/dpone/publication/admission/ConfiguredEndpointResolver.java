package io.dpone.publication.admission;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The default {@link EndpointResolver}: per-member ClickHouse connection aliases named in the connection context
 * entry of the cluster's alias, as {@code options.members}: a comma-separated list of
 * {@code <advertised host>:<advertised native port>=<connection alias>}, e.g.
 * <pre>
 * connections:
 *   analytics_cluster:
 *     type: clickhouse
 *     url: http://ch1:8123
 *     user: dpone
 *     password_env: CLICKHOUSE_PASSWORD
 *     options:
 *       members: "ch1:9000=ch1_http, ch2:9000=ch2_http"
 * </pre>
 * {@code system.clusters} advertises native ports; the aliases name the members' HTTP endpoints, which is how
 * dpone talks to them. The resolved identity is a digest of the alias and its endpoint, never the URL itself.
 */
public final class ConfiguredEndpointResolver implements EndpointResolver {
    public static final String MEMBERS_OPTION = "members";

    private final ConnectionContext context;
    private final Map<String, String> aliases;

    public ConfiguredEndpointResolver(ConnectionContext context, String clusterAlias) {
        this.context = context;
        ContextEntry entry = context.entry(clusterAlias).orElseThrow(() -> new DponeException(
            BlockerCode.CONNECTION_REF_UNKNOWN, "sink.connection_ref",
            "connection_ref '" + clusterAlias + "' is not defined in the runtime connection context"));
        this.aliases = parse(clusterAlias, entry.options().getOrDefault(MEMBERS_OPTION, ""));
    }

    static Map<String, String> parse(String clusterAlias, String option) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String part : option.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.lastIndexOf('=');
            int colon = eq < 0 ? -1 : p.lastIndexOf(':', eq);
            if (eq < 0 || colon <= 0 || !p.substring(colon + 1, eq).strip().matches("\\d{1,5}")
                || p.substring(eq + 1).isBlank()) {
                throw new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID,
                    "connections." + clusterAlias + ".options." + MEMBERS_OPTION,
                    "members must be a comma-separated list of host:port=alias");
            }
            map.put(p.substring(0, eq).strip(), p.substring(eq + 1).strip());
        }
        return map;
    }

    @Override
    public ClickHouseEndpoint open(AdvertisedMember member) {
        ConnectionSpec spec = spec(member);
        ClickHouseEndpoint endpoint;
        try {
            endpoint = ClickHouseEndpoints.open(spec);
        } catch (DponeException e) {
            throw unresolved(member.id(), "its connection alias cannot be opened");
        }
        try {
            endpoint.operations().ping();
            return endpoint;
        } catch (RuntimeException e) {
            endpoint.close();
            throw unresolved(member.id(), "its connection does not answer");
        }
    }

    @Override
    public String resolvedIdentity(AdvertisedMember member) {
        ConnectionSpec spec = spec(member);
        String where = spec.embedded() ? "embedded\n" + spec.option("path", "") : String.valueOf(spec.url()).strip();
        return "r-" + MemberId.Digests.sha256Hex(spec.alias() + "\n" + where + "\n" + spec.user()).substring(0, 16);
    }

    private ConnectionSpec spec(AdvertisedMember member) {
        String alias = aliases.get(member.host() + ":" + member.port());
        if (alias == null) {
            throw unresolved(member.id(), "no connection alias is mapped to it in options.members");
        }
        try {
            return context.resolve(alias, ConnectionType.CLICKHOUSE, "member " + member.id());
        } catch (DponeException e) {
            throw unresolved(member.id(), "its connection alias is missing, of another type or has no credential");
        }
    }

    private static DponeException unresolved(MemberId member, String why) {
        return new DponeException(BlockerCode.PUBLICATION_MEMBER_UNRESOLVED, member.toString(),
            "member " + member + " cannot be resolved to a direct connection: " + why);
    }
}
