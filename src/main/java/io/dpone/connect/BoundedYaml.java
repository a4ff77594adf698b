package io.dpone.connect;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The YAML parser every dpone document (batch manifest, connection context, serve configuration) is read with, and
 * the line bound that keeps its parse time linear.
 *
 * <p>SnakeYAML reads its input in 1 KiB steps and, while a token is being scanned, copies the whole unconsumed part
 * of its window at every step, so scanning one token of length {@code L} costs about {@code L * L / 2048} copies: a
 * 1 MB one-line scalar took 1.5 s and 8 MB 15 s in-process (docs/performance.md). Lines are therefore bounded to
 * {@link #MAX_LINE_CHARS} (checked by {@link #firstLongLine} before the parser sees the text), which makes the parse
 * linear in the document's size; the parser itself is limited in code points (the document's byte bound), nesting
 * depth, aliases, names and strings, and refuses duplicate keys.
 */
public final class BoundedYaml {
    /** The longest line accepted, in characters. */
    public static final int MAX_LINE_CHARS = 64 * 1024;
    /** The deepest nesting of mappings and sequences accepted (dpone's documents need fewer than ten levels). */
    public static final int MAX_DEPTH = 32;
    /** The most aliases to a collection one document may hold (SnakeYAML's "billion laughs" guard). */
    public static final int MAX_ALIASES = 50;
    /** The parser's limits in words, for a refusal's message. */
    public static final String LIMITS = "at most " + MAX_DEPTH + " levels of nesting, keys of at most "
        + MAX_LINE_CHARS + " characters";

    private static final java.util.Map<Integer, ObjectMapper> MAPPERS = new java.util.concurrent.ConcurrentHashMap<>();

    private BoundedYaml() {
    }

    /** A mapper for documents of at most {@code maxBytes} bytes, with every limit above (one per bound, shared). */
    public static ObjectMapper mapper(int maxBytes) {
        return MAPPERS.computeIfAbsent(maxBytes, BoundedYaml::build);
    }

    private static ObjectMapper build(int maxBytes) {
        LoaderOptions loader = new LoaderOptions();
        loader.setCodePointLimit(maxBytes);
        loader.setNestingDepthLimit(MAX_DEPTH);
        loader.setMaxAliasesForCollections(MAX_ALIASES);
        loader.setAllowRecursiveKeys(false);
        loader.setAllowDuplicateKeys(false);
        StreamReadConstraints constraints = StreamReadConstraints.builder()
            .maxDocumentLength(maxBytes)
            .maxNestingDepth(MAX_DEPTH)
            .maxNameLength(MAX_LINE_CHARS)
            .maxStringLength(maxBytes)
            .build();
        return new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(loader)
            .streamReadConstraints(constraints)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());
    }

    /**
     * The number (from 1) of the first line of {@code text} longer than {@link #MAX_LINE_CHARS} characters, or 0 when
     * there is none. {@code \n}, {@code \r} and {@code \r\n} end a line. One pass, no copy.
     */
    public static int firstLongLine(String text) {
        int line = 1;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                if (i - start > MAX_LINE_CHARS) {
                    return line;
                }
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                line++;
                start = i + 1;
            }
        }
        return text.length() - start > MAX_LINE_CHARS ? line : 0;
    }
}
