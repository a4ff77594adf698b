package io.dpone.discover;

import io.dpone.report.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rule that keeps hand edits (docs/discover.md): discover records the SHA-256 of every file it generates in
 * {@code catalog.json}; on a rerun a file is replaced only when its content still has the digest discover recorded
 * for it (nobody edited it since). A file that differs from that record, or that discover has no record of, is kept
 * as it is, and the new content goes beside it as {@code <file>.proposed}. A file of a table discover no longer
 * generates is deleted only when untouched, else kept and reported.
 */
final class GeneratedFiles {
    static final String PROPOSED = ".proposed";
    private final Path root;
    private final Map<String, String> previous;
    private final Map<String, Catalog.FileEntry> entries = new LinkedHashMap<>();

    /** {@code previous}: path to the digest discover recorded for it last time. */
    GeneratedFiles(Path root, Map<String, String> previous) {
        this.root = root;
        this.previous = Map.copyOf(previous);
    }

    /** Writes {@code content} at {@code path} (relative, '/'-separated) under the rule; returns its entry. */
    Catalog.FileEntry write(String path, String kind, String table, String content) {
        Path file = root.resolve(path);
        Path proposal = root.resolve(path + PROPOSED);
        String digest = sha256(content.getBytes(StandardCharsets.UTF_8));
        String state;
        String proposed = null;
        try {
            Files.createDirectories(file.getParent());
            if (!Files.exists(file)) {
                AtomicFiles.write(file, content);
                state = "written";
            } else {
                String current = sha256(Files.readAllBytes(file));
                if (current.equals(digest)) {
                    state = "unchanged";
                } else if (current.equals(previous.get(path))) {
                    AtomicFiles.write(file, content);
                    state = "updated";
                } else {
                    AtomicFiles.write(proposal, content);
                    state = "kept_edited";
                    proposed = path + PROPOSED;
                }
            }
            if (proposed == null) {
                Files.deleteIfExists(proposal); // an earlier proposal for this file is settled
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Catalog.FileEntry entry = new Catalog.FileEntry(path, kind, table, digest, state, proposed);
        entries.put(path, entry);
        return entry;
    }

    /**
     * Files discover generated last time and not this time (a table dropped, excluded or now blocked): deleted when
     * untouched, kept and listed as {@code kept_orphan} when edited.
     */
    void retire(Map<String, Catalog.FileEntry> before) {
        for (Catalog.FileEntry old : before.values()) {
            if (entries.containsKey(old.path()) || !safe(old.path())) {
                continue;
            }
            Path file = root.resolve(old.path());
            try {
                Files.deleteIfExists(root.resolve(old.path() + PROPOSED));
                if (!Files.exists(file)) {
                    continue;
                }
                if (sha256(Files.readAllBytes(file)).equals(old.sha256())) {
                    Files.delete(file);
                    entries.put(old.path(), new Catalog.FileEntry(old.path(), old.kind(), old.table(), null,
                        "removed", null));
                } else {
                    entries.put(old.path(), new Catalog.FileEntry(old.path(), old.kind(), old.table(), old.sha256(),
                        "kept_orphan", null));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A recorded path is only ever one discover writes: relative, under the output directory. */
    static boolean safe(String path) {
        return path != null && !path.isEmpty() && !path.startsWith("/") && !path.contains("..")
            && !path.contains("\\") && path.matches("[A-Za-z0-9_./-]+");
    }

    List<Catalog.FileEntry> entries() {
        return new ArrayList<>(entries.values());
    }

    /** The paths written as files this time (not removed). */
    Set<String> paths() {
        return entries.keySet();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
