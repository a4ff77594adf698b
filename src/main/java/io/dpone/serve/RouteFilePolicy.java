package io.dpone.serve;

import io.dpone.connect.BoundedYaml;
import io.dpone.error.BlockerCode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * What an operator's route file may do, checked before Camel sees the file. A route file is code with the pod's
 * authority (docs/operations.md, "Routes are code"); this check refuses the obvious ways to use that authority
 * beyond moving data: components outside the allowlist ({@code exec}, {@code bean}/{@code class} endpoints,
 * {@code platform-http}, {@code file} outside the declared directories, ...), Java objects named by class
 * ({@code beanType}, {@code beans:}), endpoints computed at run time ({@code toD} with an expression,
 * {@code recipientList}, {@code routingSlip}, {@code dynamicRouter}), scripting languages, the environment and
 * system properties in expressions and placeholders, and elements that act on other routes or open HTTP endpoints
 * ({@code routeConfiguration}, {@code rest}, {@code intercept*}). It is a guard against mistakes and the obvious
 * abuse, not a sandbox. The file itself must be UTF-8, at most {@link #MAX_BYTES} bytes, lines of at most
 * {@link BoundedYaml#MAX_LINE_CHARS} characters and {@link #MAX_DEPTH} levels of nesting, and a YAML sequence of
 * route elements; a route id of a shipped route is refused unless the file is named {@code *-override.yaml}.
 */
class RouteFilePolicy {
    static final int MAX_BYTES = 256 * 1024;
    static final int MAX_DEPTH = 64;
    static final String OVERRIDE_SUFFIX = "-override.yaml";
    /** Components a route file may use without configuration. */
    static final Set<String> DEFAULT_COMPONENTS = Set.of("direct", "seda", "timer", "scheduler", "quartz", "log");
    /** The ids of serve's own routes (jobs, streams, certifications, the reload timer). */
    static final List<String> RESERVED_PREFIXES = List.of("dpone_job_", "dpone_cdc_", "dpone_certify_",
        "dpone_routes_reload");
    private static final Set<String> TOP_LEVEL = Set.of("route", "from", "routeTemplate", "templatedRoute");
    private static final Set<String> URI_KEYS = Set.of("uri", "from", "to", "toD", "wireTap", "enrich", "pollEnrich",
        "interceptSendToEndpoint");
    private static final Set<String> REFUSED_KEYS = Set.of("beanType", "beans", "recipientList", "routingSlip",
        "dynamicRouter", "routeConfiguration", "rest", "restConfiguration", "intercept", "interceptFrom",
        "interceptSendToEndpoint", "groovy", "joor", "java", "js", "python", "ognl", "mvel", "spel", "script",
        "kamelet", "errorHandler");
    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");
    private static final Pattern RISKY_TEXT = Pattern.compile(
        "\\$\\{\\s*(bean|type|sysenv|sys|env|exchange|camelContext|properties|ref)[:.]|\\{\\{\\s*(env|sys|sysenv)[:.]",
        Pattern.CASE_INSENSITIVE);

    /** A route file refused before loading: its code, the position (0 when unknown) and a reason without any URI. */
    static final class Refusal extends Exception {
        final BlockerCode code;
        final int line;
        final int column;

        Refusal(BlockerCode code, Mark mark, String reason) {
            super(reason);
            this.code = code;
            this.line = mark == null ? 0 : mark.getLine() + 1;
            this.column = mark == null ? 0 : mark.getColumn() + 1;
        }
    }

    private final Set<String> components;
    private final List<Path> fileDirectories;

    RouteFilePolicy(Set<String> extraComponents, List<Path> fileDirectories) {
        Set<String> all = new TreeSet<>(DEFAULT_COMPONENTS);
        extraComponents.forEach(c -> all.add(c.toLowerCase(Locale.ROOT)));
        this.components = Set.copyOf(all);
        this.fileDirectories = fileDirectories.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    }

    /** The route ids {@code file} defines, after every check; a refusal otherwise. */
    /** Overridable only by tests (a check that throws an {@code Error}). */
    Set<String> check(Path file, Set<String> shippedIds) throws Refusal, IOException {
        String name = file.getFileName().toString();
        if (Files.size(file) > MAX_BYTES) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_FILE_TOO_LARGE, null,
                "route file holds more than " + MAX_BYTES + " bytes");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                .toString();
        } catch (CharacterCodingException e) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_FILE_INVALID, null, "route file is not UTF-8");
        }
        int longLine = BoundedYaml.firstLongLine(text);
        if (longLine > 0) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_FILE_TOO_LARGE, null, "line " + longLine + " is longer than "
                + BoundedYaml.MAX_LINE_CHARS + " characters");
        }
        Node root;
        try {
            root = yaml().compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            boolean deep = String.valueOf(e.getProblem()).toLowerCase(Locale.ROOT).contains("nesting depth");
            throw new Refusal(deep ? BlockerCode.SERVE_ROUTE_FILE_TOO_LARGE : BlockerCode.SERVE_ROUTE_FILE_INVALID,
                e.getProblemMark(), deep ? "nesting deeper than " + MAX_DEPTH + " levels" : "YAML error: " + e.getProblem());
        } catch (YAMLException e) {
            boolean deep = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("nesting depth");
            throw new Refusal(deep ? BlockerCode.SERVE_ROUTE_FILE_TOO_LARGE : BlockerCode.SERVE_ROUTE_FILE_INVALID,
                null, deep ? "nesting deeper than " + MAX_DEPTH + " levels" : "YAML error");
        }
        if (!(root instanceof SequenceNode seq)) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_FILE_INVALID, root == null ? null : root.getStartMark(),
                "a route file is a YAML sequence of route elements (- route: ...), not "
                    + (root == null ? "empty" : root instanceof MappingNode ? "a bare mapping" : "a scalar"));
        }
        Set<String> ids = new TreeSet<>();
        for (Node element : seq.getValue()) {
            if (!(element instanceof MappingNode m) || m.getValue().size() != 1
                || !(m.getValue().get(0).getKeyNode() instanceof ScalarNode k)) {
                throw new Refusal(BlockerCode.SERVE_ROUTE_FILE_INVALID, element.getStartMark(),
                    "each element is a one-key mapping such as route:");
            }
            if (!TOP_LEVEL.contains(k.getValue())) {
                throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, k.getStartMark(),
                    "element '" + k.getValue() + "' is not allowed in a route file (allowed: " + TOP_LEVEL + ")");
            }
            Node body = m.getValue().get(0).getValueNode();
            String id = k.getValue().equals("templatedRoute") ? scalar(body, "routeId") : scalar(body, "id");
            if (id != null) {
                ids.add(id);
            }
            walk(body, k.getValue());
        }
        for (String id : ids) {
            if (RESERVED_PREFIXES.stream().anyMatch(id::startsWith)) {
                throw new Refusal(BlockerCode.SERVE_ROUTE_ID_RESERVED, null,
                    "route id '" + id + "' is reserved for serve's own routes " + RESERVED_PREFIXES);
            }
            if (shippedIds.contains(id) && !name.endsWith(OVERRIDE_SUFFIX)) {
                throw new Refusal(BlockerCode.SERVE_ROUTE_ID_RESERVED, null, "route id '" + id + "' is a shipped "
                    + "route; a file that replaces it must be named *" + OVERRIDE_SUFFIX);
            }
        }
        return ids;
    }

    private static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_BYTES);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setMaxAliasesForCollections(BoundedYaml.MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        options.setAllowDuplicateKeys(false);
        return new Yaml(options);
    }

    private static String scalar(Node map, String key) {
        if (map instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)
                    && t.getValueNode() instanceof ScalarNode v) {
                    return v.getValue();
                }
            }
        }
        return null;
    }

    private void walk(Node node, String key) throws Refusal {
        if (node instanceof ScalarNode s) {
            text(s, key);
        } else if (node instanceof SequenceNode seq) {
            for (Node n : seq.getValue()) {
                walk(n, key);
            }
        } else if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode k)) {
                    throw new Refusal(BlockerCode.SERVE_ROUTE_FILE_INVALID, t.getKeyNode().getStartMark(),
                        "keys are plain names");
                }
                String name = k.getValue();
                if (REFUSED_KEYS.contains(name)) {
                    throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, k.getStartMark(),
                        "'" + name + "' is not allowed in a route file");
                }
                if (name.equals("bean") && !(t.getValueNode() instanceof MappingNode bm && scalar(bm, "ref") != null
                    && scalar(bm, "beanType") == null)) {
                    throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, k.getStartMark(),
                        "a bean step names a registered bean (ref:), never a class");
                }
                walk(t.getValueNode(), name);
            }
        }
    }

    private void text(ScalarNode s, String key) throws Refusal {
        String v = s.getValue();
        if (RISKY_TEXT.matcher(v).find()) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, s.getStartMark(),
                "expressions and placeholders may not read beans, types, the environment or system properties");
        }
        if (!URI_KEYS.contains(key)) {
            return;
        }
        Matcher m = SCHEME.matcher(v.trim());
        if (!m.find()) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, s.getStartMark(),
                "an endpoint URI must start with a literal component name");
        }
        String scheme = m.group(1).toLowerCase(Locale.ROOT);
        if (key.equals("toD") && v.contains("${")) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, s.getStartMark(),
                "toD with an expression computes its endpoint at run time and cannot be checked");
        }
        if (scheme.equals("file") && !fileDirectories.isEmpty()) {
            fileInDeclaredDirectory(s, v.trim().substring(m.end()));
            return;
        }
        if (!components.contains(scheme)) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, s.getStartMark(),
                "component '" + scheme + "' is not in the allowed components " + components
                    + " (routes.allowed_components; file: needs routes.file_directories)");
        }
    }

    private void fileInDeclaredDirectory(ScalarNode s, String rest) throws Refusal {
        String path = rest.startsWith("//") ? rest.substring(2) : rest;
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        if (path.contains("{{") || path.contains("${") || path.isBlank()) {
            throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, s.getStartMark(),
                "a file endpoint names a literal directory");
        }
        Path p = Path.of(path).toAbsolutePath().normalize();
        for (Path allowed : fileDirectories) {
            if (p.startsWith(allowed)) {
                return;
            }
        }
        throw new Refusal(BlockerCode.SERVE_ROUTE_COMPONENT_REFUSED, s.getStartMark(),
            "a file endpoint outside routes.file_directories");
    }
}
