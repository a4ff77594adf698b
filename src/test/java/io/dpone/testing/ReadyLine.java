package io.dpone.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a child process's ready line (a twin's {@code ... ready <address>}) on another thread, so a child that
 * never prints cannot hang the test; a child that does not get ready in time is killed and its output reported.
 */
public final class ReadyLine {
    private ReadyLine() {
    }

    /** The rest of the first stdout line starting with {@code prefix}, or an IOException with {@code stderr}'s text. */
    public static String await(Process p, String prefix, Path stderr, String what) throws IOException {
        return await(p, prefix, stderr, what, 120);
    }

    /**
     * As {@link #await(Process, String, Path, String)} for a child whose stderr goes to its stdout
     * ({@link ChildJvm#mergeStderr()}): the failure reports the lines read before it.
     */
    public static String await(Process p, String prefix, String what) throws IOException {
        return await(p, prefix, null, what, 120);
    }

    private static String await(Process p, String prefix, Path stderr, String what, int seconds) throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(prefix)) {
                        return line.substring(prefix.length()).trim();
                    }
                    seen.add(line);
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String rest = ready.get(seconds, TimeUnit.SECONDS);
            if (rest != null) {
                return rest;
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // reported below with the child's output
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Await.kill(p);
        String output = stderr == null ? String.join("\n", seen) : Files.exists(stderr) ? Files.readString(stderr) : "";
        throw new IOException(what + " did not start: " + output);
    }
}
