package io.dpone.publication.admission;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one admission query and turns its failure into a typed blocker, never {@code runtime.internal_error}:
 * <ul>
 *   <li>the server refused the query (missing privilege, unknown table or column on an old server, ...):
 *       {@code publication.admission_query_failed}, naming what was read and only ClickHouse's error code and
 *       error name. The server's message text is never copied: it can name hosts, users or paths;</li>
 *   <li>the connection failed or was closed: {@code publication.member_unreachable};</li>
 *   <li>the answer had an unexpected shape (a value that does not parse): {@code publication.admission_query_failed}
 *       with {@code clickhouse_error: unexpected_answer};</li>
 *   <li>a typed {@link DponeException} (e.g. {@code publication.inventory_incomplete}) passes through.</li>
 * </ul>
 * The subject is the opaque member id, or {@code sink.connection_ref} for the entry connection.
 */
public final class AdmissionFailures {
    private static final Pattern CODE = Pattern.compile("Code:\\s*(\\d{1,5})");
    private static final Pattern NAME = Pattern.compile("\\(([A-Z][A-Z0-9_]{2,})\\)");

    private AdmissionFailures() {
    }

    /** {@code what} names the system table or statement read (e.g. {@code system.clusters}), never a value. */
    public static <T> T query(String subject, String what, Supplier<T> query) {
        try {
            return query.get();
        } catch (DponeException e) {
            if (e.blockers().stream().anyMatch(b -> b.code().equals(BlockerCode.CONNECTION_FAILED.code()))) {
                throw unreachable(subject, what);
            }
            throw e;
        } catch (IllegalStateException e) {
            throw unreachable(subject, what);
        } catch (ClickHouseQueryException e) {
            String message = String.valueOf(e.getMessage());
            throw failed(subject, what, group(CODE, message), group(NAME, message));
        } catch (RuntimeException e) {
            throw failed(subject, what, null, "unexpected_answer");
        }
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    static DponeException failed(String subject, String what, String code, String name) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("query", what);
        if (code != null) {
            details.put("clickhouse_code", Integer.parseInt(code));
        }
        if (name != null) {
            details.put("clickhouse_error", name);
        }
        String error = code == null && name == null ? "an error"
            : "ClickHouse error" + (code == null ? "" : " " + code) + (name == null ? "" : " (" + name + ")");
        return new DponeException(Blocker.of(BlockerCode.PUBLICATION_ADMISSION_QUERY_FAILED, subject,
            "admission could not read " + what + " on " + where(subject) + ": " + error
                + "; check the runtime principal's grants and the server version", details));
    }

    private static DponeException unreachable(String subject, String what) {
        return new DponeException(Blocker.of(BlockerCode.PUBLICATION_MEMBER_UNREACHABLE, subject,
            where(subject) + " stopped answering during admission (reading " + what + ")", Map.of("query", what)));
    }

    private static String where(String subject) {
        return subject.startsWith("m-") ? "member " + subject : "the sink connection";
    }
}
