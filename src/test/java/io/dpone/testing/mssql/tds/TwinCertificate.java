package io.dpone.testing.mssql.tds;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The twin's self-signed TLS certificate for {@code localhost}/127.0.0.1, made once per data directory with the
 * JDK's {@code keytool} (the JDK has no API to issue a certificate; a library for it would be a dependency for one
 * file). Clients trust it with {@code trustServerCertificate=true}, as they would a new server's own certificate.
 */
public final class TwinCertificate {
    private static final char[] STORE_PASSWORD = "mssql-twin-local".toCharArray();

    private TwinCertificate() {
    }

    public static SSLContext context(Path dir) throws IOException {
        Path store = dir.resolve("twin-tls.p12");
        if (!Files.exists(store)) {
            create(store);
        }
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, STORE_PASSWORD);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, STORE_PASSWORD);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("the twin's TLS key store cannot be read", e);
        }
    }

    private static void create(Path store) throws IOException {
        Files.createDirectories(store.getParent());
        Path tmp = store.resolveSibling("twin-tls.p12.tmp");
        Files.deleteIfExists(tmp);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "mssql-twin", "-keyalg", "RSA",
            "-keysize", "2048", "-validity", "3650", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
            "-storetype", "PKCS12", "-keystore", tmp.toString(), "-storepass", new String(STORE_PASSWORD),
            "-keypass", new String(STORE_PASSWORD))).redirectErrorStream(true).start();
        try {
            byte[] output = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("keytool failed: " + new String(output, java.nio.charset.StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the twin's certificate", e);
        }
        Files.move(tmp, store, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
