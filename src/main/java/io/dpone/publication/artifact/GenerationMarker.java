package io.dpone.publication.artifact;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The marker dpone writes into the comment of every table it creates for a publication: the logical generation
 * and the owning operation. A table without a marker, or with another operation's marker, is not dpone's to
 * drop or rebuild.
 */
public record GenerationMarker(String generationId, String operationId) {
    private static final Pattern FORMAT = Pattern.compile("dpone\\.generation=([0-9a-z-]{1,80});operation=([0-9a-z-]{1,80})");

    public GenerationMarker {
        if (!FORMAT.matcher(render(generationId, operationId)).matches()) {
            throw new IllegalArgumentException("generation marker parts must be lower-case digests");
        }
    }

    private static String render(String generationId, String operationId) {
        return "dpone.generation=" + generationId + ";operation=" + operationId;
    }

    /** The comment text. */
    public String comment() {
        return render(generationId, operationId);
    }

    /** Parses a table comment; null when it is not exactly a dpone marker. */
    public static GenerationMarker parse(String comment) {
        if (comment == null) {
            return null;
        }
        Matcher m = FORMAT.matcher(comment.strip());
        return m.matches() ? new GenerationMarker(m.group(1), m.group(2)) : null;
    }
}
