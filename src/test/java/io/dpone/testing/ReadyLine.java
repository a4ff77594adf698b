package io.dpone.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a child process's ready line (a twin's {@code ... ready <address>}) on another thread, so a child that
 * never prints cannot hang the test; a child that does not get ready in time is killed and its stderr reported.
 */
public final class ReadyLine {
    private ReadyLine() {
    }

    /** The rest of the first stdout line starting with {@code prefix}, or an IOException with {@code stderr}'s text. */
    public static String await(Process p, String prefix, Path stderr, String what) throws IOException {
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(prefix)) {
                        return line.substring(prefix.length()).trim();
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String rest = ready.get(120, TimeUnit.SECONDS);
            if (rest != null) {
                return rest;
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // reported below with the child's stderr
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        p.destroyForcibly();
        throw new IOException(what + " did not start: " + (Files.exists(stderr) ? Files.readString(stderr) : ""));
    }
}
