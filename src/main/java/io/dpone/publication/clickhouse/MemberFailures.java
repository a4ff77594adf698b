package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.connect.Redactor;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.MemberUnavailableException;
import java.util.function.Supplier;

/**
 * Maps an endpoint failure to the member contract: could not reach the member ({@code connection.failed}, a
 * closed endpoint) becomes {@link MemberUnavailableException} carrying only the opaque id; a refusal by the member
 * becomes {@code publication.member_statement_failed} with the redacted server message.
 */
final class MemberFailures {
    private static final java.util.regex.Pattern HOST_PORT =
        java.util.regex.Pattern.compile("\\[[A-Za-z0-9_.:-]+:\\d{1,5}\\]");

    private MemberFailures() {
    }

    static <T> T call(MemberId member, String what, Supplier<T> statement) {
        try {
            return statement.get();
        } catch (ClickHouseQueryException e) {
            throw new DponeException(BlockerCode.PUBLICATION_MEMBER_STATEMENT_FAILED, member.toString(),
                "member " + member + " refused " + what + ": " + safe(e.getMessage()));
        } catch (DponeException e) {
            if (e.blockers().stream().anyMatch(b -> b.code().equals(BlockerCode.CONNECTION_FAILED.code()))) {
                throw new MemberUnavailableException(member, what);
            }
            throw e;
        } catch (IllegalStateException e) {
            throw new MemberUnavailableException(member, what);
        }
    }

    /** The server's message with secrets, URLs and paths masked and {@code [host:port]} addresses removed. */
    static String safe(String message) {
        String text = Redactor.global().redact(String.valueOf(message));
        return HOST_PORT.matcher(text).replaceAll("[member]");
    }

    static void run(MemberId member, String what, Runnable statement) {
        call(member, what, () -> {
            statement.run();
            return null;
        });
    }
}
