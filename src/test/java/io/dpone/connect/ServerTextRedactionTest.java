package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 37: text a server wrote is redacted by shape (hosts, userinfo, credentials, e-mail addresses) and capped. */
class ServerTextRedactionTest {
    private final Redactor r = new Redactor();

    @Test
    void shapesAreMaskedWithoutKnowingTheValues() {
        String body = "Code: 516. DB::Exception: admin:Hunter2pw@10.1.2.3:9000 refused; password=Sup3rSecret9, "
            + "secret: s3cr3tV4lue; mail ops@corp.example.com; Host: ch-primary; peer [fe80::1]:9009, "
            + "ch-7:9000 and ch-7.prod.internal. (AUTHENTICATION_FAILED) (version 24.8.4.13 (official build))";
        String out = r.serverText(body);
        for (String leak : List.of("Hunter2pw", "admin:", "10.1.2.3", "Sup3rSecret9", "s3cr3tV4lue", "ops@",
            "corp.example.com", "ch-primary", "fe80::1", "ch-7:9000", "ch-7.prod.internal")) {
            assertFalse(out.contains(leak), leak + " in " + out);
        }
        for (String kept : List.of("Code: 516. DB::Exception:", "AUTHENTICATION_FAILED", "version 24.8.4.13")) {
            assertTrue(out.contains(kept), kept + " missing from " + out);
        }
        assertTrue(out.contains(ServerTextPatterns.EMAIL_PLACEHOLDER), out);
        assertTrue(out.contains(Redactor.HOST_PLACEHOLDER), out);
    }

    @Test
    void tableNamesNumbersAndTimesStay() {
        for (String kept : List.of("Code: 60. DB::Exception: Table analytics.orders_stg does not exist. (UNKNOWN_TABLE)",
            "Syntax error: failed at position 10 (line 1, col 10)", "at 2026-12-04T17:37:41Z", "rows 1.5 of 2.25",
            "Code: 159. DB::Exception: Watching task is executing longer than distributed_ddl_task_timeout")) {
            assertEquals(kept, r.serverText(kept));
        }
        assertNull(r.serverText(null));
    }

    @Test
    void longTextIsCappedAndTheContextsOwnValuesStillGo() {
        r.registerSecret("registered-value-42");
        String out = r.serverText("registered-value-42 " + "x".repeat(10_000));
        assertFalse(out.contains("registered-value-42"));
        assertTrue(out.length() < ServerTextPatterns.MAX_CHARS + 40, String.valueOf(out.length()));
        assertTrue(out.endsWith(" more characters)"), out.substring(out.length() - 40));
    }
}
