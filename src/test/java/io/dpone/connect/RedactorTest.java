package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RedactorTest {
    private static final String PASSWORD = "S3cr3t-Pa55!";
    private static final String AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
    private static final String AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    private static final String JDBC =
            "jdbc:sqlserver://mssql.corp.internal:1433;databaseName=sales;user=etl;password=Jd8cPw0rd;encrypt=true";
    private static final String HTTP_WITH_USERINFO = "https://etl_user:Ht7pPass@clickhouse.corp.internal:8443/?database=raw";
    private static final String PRESIGNED = "https://dpone-bucket.s3.eu-west-1.amazonaws.com/runs/chunk-0001.bin"
            + "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240102%2Feu-west-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20240102T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host"
            + "&X-Amz-Security-Token=FwoGZXIvYXdzEJr0SessTok&X-Amz-Signature=9f2c4a1be07d55aa";
    private static final String LOCAL_PATH = "/tmp/dpone-run/chunk-0001.bin";

    /** Substrings that must never survive redaction. */
    private static final List<String> LEAKS = List.of(PASSWORD, AWS_KEY_ID, AWS_SECRET, "Jd8cPw0rd", "mssql.corp.internal",
            "Ht7pPass", "etl_user", "clickhouse.corp.internal", "dpone-bucket", "9f2c4a1be07d55aa", "FwoGZXIvYXdzEJr0SessTok",
            "/tmp/dpone-run", "chunk-0001.bin", "eyJhbGciOiJIUzI1NiJ9.payload.sig", "dXNlcjpwYXNz");

    private Redactor redactor;

    @BeforeEach
    void setUp() {
        redactor = new Redactor();
        redactor.registerSecret(PASSWORD);
    }

    private void assertNoLeak(String redacted) {
        for (String leak : LEAKS) {
            assertFalse(redacted.contains(leak), () -> "leaked '" + leak + "' in: " + redacted);
        }
    }

    @Test
    void registeredSecretsAreMaskedLongestFirstAndShortOrNullValuesIgnored() {
        redactor.registerSecret(PASSWORD + "-rotated");
        redactor.registerSecret("abc");
        redactor.registerSecret(null);
        redactor.registerSecret("    ");

        assertEquals("old *** new *** short abc spaces    end",
                redactor.redact("old " + PASSWORD + " new " + PASSWORD + "-rotated short abc spaces    end"));
        // the URL-encoded form of a registered secret is masked too
        assertEquals("form body p=***&u=etl", redactor.redact("form body p=S3cr3t-Pa55%21&u=etl"));
        // a fresh instance knows nothing
        assertEquals("raw " + PASSWORD, new Redactor().redact("raw " + PASSWORD));
    }

    @Test
    void globalInstanceReceivesSecretsFromSecretOf() {
        assertSame(Redactor.global(), Redactor.global());
        Secret secret = Secret.of("G1obal-Only-Value-42");
        assertEquals("***", secret.toString());
        assertEquals("login as etl with *** failed", Redactor.global().redact("login as etl with G1obal-Only-Value-42 failed"));
        assertEquals("G1obal-Only-Value-42", secret.reveal());
    }

    @Test
    void jdbcUrlsBecomePlaceholdersUpToWhitespaceOrQuote() {
        assertEquals("connect failed: <redacted:jdbc-url> (timeout after 30s)",
                redactor.redact("connect failed: " + JDBC + " (timeout after 30s)"));
        assertEquals("url=\"<redacted:jdbc-url>\" ok", redactor.redact("url=\"jdbc:h2:mem:x;MODE=MSSQLServer\" ok"));
        assertEquals("'<redacted:jdbc-url>'", redactor.redact("'JDBC:sqlserver://h:1433;password=" + PASSWORD + "'"));
    }

    /** Issue 18: a password holding a space was half printed (the URL placeholder stopped at the space). */
    @Test
    void aUrlPlaceholderCoversAPasswordThatHoldsASpace() {
        String spaced = "my Sp4ced secret";
        List<String> parts = List.of("Sp4ced", "secret");
        String[][] cases = {
            {"seed failed: jdbc:h2:file:./demo;MODE=MSSQLServer;PASSWORD=" + spaced + ";DB_CLOSE_DELAY=-1 [90046-224]",
                "seed failed: <redacted:jdbc-url> [90046-224]"},
            {"seed failed: jdbc:h2:file:./demo;PASSWORD=" + spaced, "seed failed: <redacted:jdbc-url>"},
            {"seed failed: jdbc:sqlserver://h:1433;pwd=" + spaced + " (timeout after 30s)",
                "seed failed: <redacted:jdbc-url>"},
            {"url=\"jdbc:h2:mem:x;PASSWORD=" + spaced + "\" ok", "url=\"<redacted:jdbc-url>\" ok"},
            {"GET https://etl:" + spaced + "@ch.internal:8443/q failed", "GET <redacted:url> failed"},
            {"GET https://ch.internal/?token=" + spaced + "&x=1 failed", "GET <redacted:url> failed"},
            {"GET 'https://ch.internal/?token=" + spaced + "' failed", "GET '<redacted:url>' failed"},
            {"GET https://ch.internal/?token=" + spaced, "GET <redacted:url>"},
            {"copy jdbc:h2:a;x=1 to jdbc:h2:b;PASSWORD=" + spaced + ";y=2 done",
                "copy <redacted:jdbc-url> to <redacted:jdbc-url> done"}};
        for (String[] c : cases) {
            String redacted = redactor.redact(c[0]);
            assertEquals(c[1], redacted, c[0]);
            parts.forEach(part -> assertFalse(redacted.contains(part), redacted));
        }
        assertEquals("connect to <redacted:url> refused; retry in 5 s, then mail ops",
                redactor.redact("connect to http://127.0.0.1:1 refused; retry in 5 s, then mail ops"),
                "a URL without user-info or credential ends at its space as before");
    }

    @Test
    void urlsWithSchemesBecomePlaceholdersIncludingCredentialsAndPresignedParams() {
        assertEquals("POST <redacted:url> failed.", redactor.redact("POST " + HTTP_WITH_USERINFO + " failed."));
        assertEquals("fetch <redacted:url> -> 403", redactor.redact("fetch " + PRESIGNED + " -> 403"));
        assertEquals("staging at <redacted:url>, sink <redacted:url>",
                redactor.redact("staging at s3://dpone-bucket/runs/42/, sink tcp://clickhouse.corp.internal:9000"));
        assertEquals("(see <redacted:url>)", redactor.redact("(see http://clickhouse.corp.internal:8123/ping)"));
        assertEquals("<redacted:url>", redactor.redact("file:///tmp/dpone-run/chunk-0001.bin"));
    }

    @Test
    void credentialKeyValuePairsAreMasked() {
        assertEquals("password=*** user=etl", redactor.redact("password=hunter22 user=etl"));
        assertEquals("PWD: *** ; Secret=***", redactor.redact("PWD: hunter22 ; Secret=topsecret"));
        assertEquals("{\"token\": \"***\", \"rows\": 5}", redactor.redact("{\"token\": \"abc def\", \"rows\": 5}"));
        assertEquals("'api_key': '***'", redactor.redact("'api_key': 'k-123'"));
        assertEquals("aws_secret_access_key = ***", redactor.redact("aws_secret_access_key = " + AWS_SECRET));
        assertEquals("accessKeyId=***, secretAccessKey=***",
                redactor.redact("accessKeyId=" + AWS_KEY_ID + ", secretAccessKey=" + AWS_SECRET));
        assertEquals("ACCESS_KEY=*** SECRET_KEY=***", redactor.redact("ACCESS_KEY=abcd SECRET_KEY=efgh"));
        // an unquoted value runs to whitespace/,/;/&: a closing brace may belong to the password, so it goes too
        assertEquals("{user=etl, sink.password=***", redactor.redact("{user=etl, sink.password=hunter22}"));
        assertEquals("run --token *** --rows 10", redactor.redact("run --token tk-998877 --rows 10"));
        // bare presigned query parameters (outside a URL)
        assertEquals("X-Amz-Credential=***&X-Amz-Security-Token=***&X-Amz-Signature=***&Signature=***&X-Amz-Expires=900",
                redactor.redact("X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240102&X-Amz-Security-Token=FwoGZXIvYXdzEJr0SessTok"
                        + "&X-Amz-Signature=9f2c4a1be07d55aa&Signature=abc&X-Amz-Expires=900"));
        // names of where a secret lives are not secrets
        assertEquals("password_env=DPONE_MSSQL_PASSWORD", redactor.redact("password_env=DPONE_MSSQL_PASSWORD"));
    }

    @Test
    void authorizationHeadersAndBearerTokensAreMasked() {
        assertEquals("Authorization: Bearer ***", redactor.redact("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig"));
        assertEquals("authorization=Basic ***", redactor.redact("authorization=Basic dXNlcjpwYXNz"));
        assertEquals("{\"Authorization\": \"Bearer ***\"}",
                redactor.redact("{\"Authorization\": \"Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig\"}"));
        assertEquals("sent Bearer *** upstream", redactor.redact("sent Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig upstream"));
    }

    @Test
    void awsKeysAreMaskedBare() {
        assertEquals("key *** in use", redactor.redact("key " + AWS_KEY_ID + " in use"));
        assertEquals("temp ***.", redactor.redact("temp ASIAY34FZKBOKMUTVV7A."));
        assertEquals("leaked *** here", redactor.redact("leaked " + AWS_SECRET + " here"));
        // a lower-case hex digest (e.g. a content hash) is not a secret
        String sha1 = "da39a3ee5e6b4b0d3255bfef95601890afd80709";
        assertEquals("sha1 " + sha1, redactor.redact("sha1 " + sha1));
    }

    @Test
    void absoluteLocalPathsArePlaceholdersButOrdinaryTextIsNot() {
        assertEquals("spill to <redacted:path> done", redactor.redact("spill to " + LOCAL_PATH + " done"));
        assertEquals("cache=<redacted:path>", redactor.redact("cache=/home/u/.cache/dpone/runs/42"));
        assertEquals("<redacted:path>: No such file", redactor.redact("/var/lib/dpone/state.json: No such file"));
        assertEquals("(<redacted:path>)", redactor.redact("(~/.cache/dpone)"));
        assertEquals("open <redacted:path> failed", redactor.redact("open C:\\Users\\etl\\dpone\\x.bin failed"));
        assertEquals("rate 5 rows/s, /s alone, /tmp/ alone", redactor.redact("rate 5 rows/s, /s alone, /tmp/ alone"));
        assertEquals("relative src/main/java and 3 MB/s/core stay", redactor.redact("relative src/main/java and 3 MB/s/core stay"));
    }

    @Test
    void ordinaryTextSurvivesUnchanged() {
        String text = "loaded 100000 rows at 2024-01-02 12:30:00 into sink.table.name (a/b, 1/2, rows/s, n/a); "
                + "check quality.row_count_mismatch: expected=10 actual=9; error: timeout; max_tokens=5; HTTP/1.1; "
                + "sha=da39a3ee; note: the key column is id";
        assertEquals(text, redactor.redact(text));
    }

    @Test
    void plantedSecretsInMixedTextNeverSurvive() {
        String text = "run failed: " + JDBC + " then " + HTTP_WITH_USERINFO + " upload " + PRESIGNED
                + " key " + AWS_KEY_ID + " secret " + AWS_SECRET + " pass " + PASSWORD + " at " + LOCAL_PATH
                + " Authorization: Basic dXNlcjpwYXNz; 100000 rows, rows/s, sink.table.name, 2024-01-02";
        String redacted = redactor.redact(text);
        assertNoLeak(redacted);
        assertEquals("run failed: <redacted:jdbc-url> then <redacted:url> upload <redacted:url> key *** secret *** pass ***"
                + " at <redacted:path> Authorization: Basic ***; 100000 rows, rows/s, sink.table.name, 2024-01-02", redacted);
        assertEquals(redacted, redactor.redact(redacted), "redaction must be idempotent");
    }

    @Test
    void nullAndEmptyAreSafe() {
        assertNull(redactor.redact(null));
        assertEquals("", redactor.redact(""));
        assertNull(redactor.redactValue(null));
        assertEquals("", redactor.describe(null));
    }

    @Test
    void redactValueWalksMapsAndListsAndMasksCredentialKeys() {
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("name", "sink.table.name");
        source.put("rows", 100000L);
        source.put("ok", true);
        source.put("missing", null);
        source.put("password", 12345);
        source.put("aws_secret_access_key", AWS_SECRET);
        source.put("Authorization", List.of("Bearer x"));
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("url", JDBC);
        nested.put("endpoint", HTTP_WITH_USERINFO);
        nested.put("spill", LOCAL_PATH);
        nested.put("secretAccessKey", Map.of("any", "thing"));
        nested.put("notes", new ArrayList<>(List.of("pass " + PASSWORD, "key " + AWS_KEY_ID, "rows/s", 7)));
        source.put("connection", nested);

        Object result = redactor.redactValue(source);

        Map<String, Object> expectedNested = new LinkedHashMap<>();
        expectedNested.put("url", "<redacted:jdbc-url>");
        expectedNested.put("endpoint", "<redacted:url>");
        expectedNested.put("spill", "<redacted:path>");
        expectedNested.put("secretAccessKey", "***");
        expectedNested.put("notes", List.of("pass ***", "key ***", "rows/s", 7));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("name", "sink.table.name");
        expected.put("rows", 100000L);
        expected.put("ok", true);
        expected.put("missing", null);
        expected.put("password", "***");
        expected.put("aws_secret_access_key", "***");
        expected.put("Authorization", "***");
        expected.put("connection", expectedNested);
        assertEquals(expected, result);
        assertEquals(new ArrayList<>(source.keySet()), new ArrayList<>(((Map<?, ?>) result).keySet()), "key order kept");
        assertTrue(result instanceof LinkedHashMap<?, ?>);
        assertTrue(source.get("connection") == nested && nested.get("url") == JDBC, "input is not modified");
        assertNoLeak(String.valueOf(result));
        assertEquals(List.of("***", "ok"), redactor.redactValue(new Object[] {PASSWORD, "ok"}));
        assertEquals(42, redactor.redactValue(42));
    }

    @Test
    void credentialKeyDetection() {
        for (String key : List.of("password", "db.password", "PWD", "client_secret", "auth_token", "access_key",
                "secret_key", "accessKeyId", "x-amz-security-token", "credentials", "Proxy-Authorization", "api-key")) {
            assertTrue(Redactor.isCredentialKey(key), key);
        }
        for (String key : List.of("name", "rows", "password_env", "token_count", "keyspace", "sink.table.name")) {
            assertFalse(Redactor.isCredentialKey(key), key);
        }
    }

    @Test
    void describeJoinsRedactedMessagesOfAtMostThreeCauses() {
        Throwable root = new IOException((String) null);
        Throwable chain = new IllegalStateException("load failed for " + JDBC,
                new UncheckedIOException("upload to " + PRESIGNED + " failed", new IOException("password=" + PASSWORD, root)));
        assertEquals("load failed for <redacted:jdbc-url>: upload to <redacted:url> failed: password=***: IOException",
                redactor.describe(chain));

        Throwable deep = new RuntimeException("l0", new RuntimeException("l1",
                new RuntimeException("l2", new RuntimeException("l3", new RuntimeException("l4")))));
        assertEquals("l0: l1: l2: l3", redactor.describe(deep));

        // the wrapper's default message repeats the cause; it is not printed twice
        assertEquals("java.io.IOException: disk full at <redacted:path>",
                redactor.describe(new RuntimeException(new IOException("disk full at " + LOCAL_PATH))));
    }

    /**
     * Third-party messages name a context's hosts without their URL: the AWS SDK's {@code Connect to host:port
     * [/ip]}, mssql-jdbc's {@code host X, port N}, an {@code UnknownHostException}'s bare name. The hosts of
     * registered endpoints are masked wherever they appear; single-label hosts (ordinary words) are not registered.
     */
    @Test
    void registeredEndpointHostsAreMaskedWithoutTheirUrl() {
        redactor.registerEndpoint("http://10.20.30.40:44209");
        redactor.registerEndpoint("jdbc:sqlserver://db.corp.example:1433;databaseName=x");
        redactor.registerEndpoint("https://user@s3.eu.example.com/bucket");
        redactor.registerEndpoint("http://[fd00::17]:8123");
        redactor.registerEndpoint("http://minio:9000");
        redactor.registerEndpoint("jdbc:h2:/tmp/x/y");
        redactor.registerEndpoint(null);
        String sdk = "Unable to execute HTTP request: Connect to 10.20.30.40:44209 [/10.20.30.40] failed: "
            + "Connection refused";
        assertEquals("Unable to execute HTTP request: Connect to <redacted:host> [/<redacted:host>] failed: "
            + "Connection refused", redactor.redact(sdk));
        assertEquals("The TCP/IP connection to the host <redacted:host> has failed",
            redactor.redact("The TCP/IP connection to the host db.corp.example, port 1433 has failed"));
        assertEquals("Prelogin error: host <redacted:host> Unexpected response",
            redactor.redact("Prelogin error: host db.corp.example port 1433 Unexpected response"));
        assertEquals("<redacted:host>: Name or service not known",
            redactor.redact("s3.eu.example.com: Name or service not known"));
        assertEquals("connect to <redacted:host> refused", redactor.redact("connect to [fd00::17]:8123 refused"));
        assertEquals("bucket minio ready", redactor.redact("bucket minio ready"), "a word stays a word");
    }

    /** A typed failure's message is its whole account: the third-party text of its causes is not appended. */
    @Test
    void describeStopsAtATypedFailure() {
        Throwable sdk = new IllegalStateException("Connect to 10.1.2.3:9000 [/10.1.2.3] failed");
        class Typed extends RuntimeException implements io.dpone.error.CompleteMessage {
            Typed(Throwable cause) {
                super("PutObject <redacted:url> failed: endpoint unreachable (HttpHostConnectException)", cause);
            }
        }
        assertEquals("upload failed: PutObject <redacted:url> failed: endpoint unreachable (HttpHostConnectException)",
            redactor.describe(new RuntimeException("upload failed", new Typed(sdk))));
        assertEquals("dpone said: Connect to 10.1.2.3:9000 [/10.1.2.3] failed",
            redactor.describe(new RuntimeException("dpone said", sdk)), "an untyped wrapper shows its causes");
    }

    @Test
    void registrationIsThreadSafe() throws Exception {
        Redactor shared = new Redactor();
        int threads = 8;
        int perThread = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            for (int t = 0; t < threads; t++) {
                int id = t;
                pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        shared.registerSecret("secret-value-" + id + "-" + i);
                        shared.redact("warm secret-value-" + id + "-" + i);
                    }
                    return null;
                });
            }
            start.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                assertEquals("x *** y", shared.redact("x secret-value-" + t + "-" + i + " y"));
            }
        }
    }

    @Test
    void pathologicalInputsStayLinear() {
        char[] fill = new char[200_000];
        Arrays.fill(fill, 'a');
        String run = new String(fill);
        String repeatedKeys = "password:\"".repeat(20_000);
        String dotted = "a.".repeat(100_000);
        String slashes = "/a".repeat(100_000);
        String colons = "x:".repeat(100_000);
        String jdbcLong = "jdbc:" + run;
        String urlLong = "http://" + run;
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertEquals(run, redactor.redact(run));
            assertEquals(dotted, redactor.redact(dotted));
            assertEquals(colons, redactor.redact(colons));
            assertEquals("<redacted:path>", redactor.redact(slashes));
            assertEquals("<redacted:jdbc-url>", redactor.redact(jdbcLong));
            assertEquals("<redacted:url>", redactor.redact(urlLong));
            assertFalse(redactor.redact(repeatedKeys).isEmpty());
        });
    }

    @Test
    void inProcessCamelUrisAndServedHttpPathsStayReadableButRealEndpointsAndFilesDoNot() {
        Redactor r = new Redactor();
        assertEquals("thread #4 - timer://dpone_job_demo", r.redact("thread #4 - timer://dpone_job_demo"));
        assertEquals("health /observe/health/ready", r.redact("health /observe/health/ready"));
        assertEquals("<redacted:url>", r.redact("http://ch1:8123/observe/health"));
        assertEquals("<redacted:url>", r.redact("file://etc/dpone/routes"));
        assertEquals("at <redacted:path>", r.redact("at /var/lib/dpone/observe"));
        assertEquals("<redacted:path>", r.redact("/tmp/observe/x"));
    }
}
