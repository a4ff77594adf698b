package io.dpone.connect;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The one-line, redacted description of a throwable and its causes that {@link Redactor#describe(Throwable)}
 * returns: messages only, never stack traces.
 */
final class ThrowableDescription {
    private static final int MAX_CAUSES = 3;

    private ThrowableDescription() {
    }

    /**
     * {@code t}'s message (or simple class name when there is none), then at most {@value #MAX_CAUSES} causes, each
     * redacted by {@code redactor}, joined by {@code ": "}. A cause whose text already appears is skipped; the causes of
     * a {@link io.dpone.error.CompleteMessage} (a typed failure) are not shown.
     */
    static String of(Throwable t, Redactor redactor) {
        if (t == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable current = t;
        for (int depth = 0; current != null && depth <= MAX_CAUSES && seen.add(current); depth++) {
            String part = redactor.redact(messageOf(current));
            if (out.indexOf(part) < 0) {
                if (out.length() > 0) {
                    out.append(": ");
                }
                out.append(part);
            }
            // a typed failure's message is the whole account: its causes are a third party's words
            current = current instanceof io.dpone.error.CompleteMessage ? null : current.getCause();
        }
        return out.toString();
    }

    private static String messageOf(Throwable t) {
        String message = t.getMessage();
        if (message != null && !message.isBlank()) {
            return message;
        }
        String simple = t.getClass().getSimpleName();
        return simple.isEmpty() ? t.getClass().getName() : simple;
    }
}
