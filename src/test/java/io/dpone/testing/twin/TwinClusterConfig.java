package io.dpone.testing.twin;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * What the twin's distributed-DDL and replication emulations read from the engine's server configuration: the
 * ZooKeeper ensemble ({@code <zookeeper><node><host>/<port>}), every cluster of {@code <remote_servers>} with its
 * replicas as {@code host:port} (the native port the cluster definition advertises, as ClickHouse names a queue
 * entry's hosts), and each such host's shard number (1-based, in the first cluster listing it: the {@code {shard}}
 * macro of its replicated tables).
 */
record TwinClusterConfig(String zooKeeper, Map<String, List<String>> clusters, Map<String, String> shards) {

    /** The configuration of {@code file}, or null when it has no ZooKeeper or no cluster (no DDL queue then). */
    static TwinClusterConfig read(Path file) throws IOException {
        if (file == null) {
            return null;
        }
        Element root;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            root = f.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("the twin's configuration file is not valid XML: " + e.getMessage(), e);
        }
        List<String> nodes = new ArrayList<>();
        for (Element zk : children(root, "zookeeper")) {
            for (Element node : children(zk, "node")) {
                nodes.add(text(node, "host") + ":" + text(node, "port"));
            }
        }
        Map<String, List<String>> clusters = new LinkedHashMap<>();
        Map<String, String> shards = new LinkedHashMap<>();
        for (Element servers : children(root, "remote_servers")) {
            for (Element cluster : elements(servers.getChildNodes())) {
                List<String> hosts = new ArrayList<>();
                int shardNum = 0;
                for (Element shard : children(cluster, "shard")) {
                    shardNum++;
                    for (Element replica : children(shard, "replica")) {
                        String host = text(replica, "host") + ":" + text(replica, "port");
                        hosts.add(host);
                        shards.putIfAbsent(host, Integer.toString(shardNum));
                    }
                }
                clusters.put(cluster.getTagName(), List.copyOf(hosts));
            }
        }
        return nodes.isEmpty() || clusters.isEmpty() ? null
            : new TwinClusterConfig(String.join(",", nodes), clusters, shards);
    }

    /** The {@code {shard}} macro of {@code host}'s replicated tables: its shard number, or 1 when no cluster lists it. */
    String shard(String host) {
        return shards.getOrDefault(host, "1");
    }

    private static List<Element> children(Element parent, String tag) {
        return elements(parent.getChildNodes()).stream().filter(e -> e.getTagName().equals(tag)).toList();
    }

    private static List<Element> elements(NodeList nodes) {
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE) {
                out.add((Element) nodes.item(i));
            }
        }
        return out;
    }

    private static String text(Element parent, String tag) {
        return children(parent, tag).stream().findFirst().map(e -> e.getTextContent().strip()).orElse("");
    }
}
