package io.dpone.clickhouse.chdb;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Finds or installs the embedded ClickHouse engine ({@code libchdb.so}).
 *
 * <p>Resolution order: {@code -Ddpone.chdb.library} / {@code DPONE_CHDB_LIBRARY} (an explicit file), then the user
 * cache ({@code $DPONE_CACHE_DIR} or {@code ~/.cache/dpone}) at {@code chdb/VERSION/libchdb.so}. A missing cache
 * entry is installed with {@code npm pack} of the pinned package, verified against its pinned integrity hash,
 * unpacked to a temp file and renamed into place, under a file lock so parallel processes install once.
 */
public final class ChdbInstaller {
    public static final String PACKAGE = "@chdb/lib-linux-x64-gnu";
    public static final String VERSION = "26.5.3";
    static final String INTEGRITY =
        "sha512-fPrLmRt5Moor9yGz4mazbrNje4t7X9KB2mTGkXFWRxRBs2iKy8yh6jx11xsa0Qr3iDFMU/yHqd+bVdYJXu3QaQ==";
    private static final String LIBRARY_ENTRY = "package/libchdb.so";

    private final Path cacheRoot;

    public ChdbInstaller(Path cacheRoot) {
        this.cacheRoot = cacheRoot;
    }

    /** The installer for the default user cache. */
    public static ChdbInstaller forUserCache() {
        String configured = System.getenv("DPONE_CACHE_DIR");
        Path root = configured != null && !configured.isBlank()
            ? Path.of(configured)
            : Path.of(System.getProperty("user.home"), ".cache", "dpone");
        return new ChdbInstaller(root);
    }

    /** Returns the library path, installing it first when needed. */
    public Path ensureInstalled() {
        String explicit = System.getProperty("dpone.chdb.library", System.getenv("DPONE_CHDB_LIBRARY"));
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit);
            if (!Files.isRegularFile(path)) {
                throw new ChdbException("DPONE_CHDB_LIBRARY does not name an existing libchdb.so file");
            }
            return path;
        }
        Path target = cacheRoot.resolve("chdb").resolve(VERSION).resolve("libchdb.so");
        if (Files.isRegularFile(target)) {
            return target;
        }
        try {
            Files.createDirectories(target.getParent());
            try (FileChannel lockFile = io.dpone.connect.PrivateFiles.lockFile(target.resolveSibling(".install.lock"));
                 FileLock ignored = lockFile.lock()) {
                if (!Files.isRegularFile(target)) {
                    install(target);
                }
            }
            return target;
        } catch (IOException e) {
            throw new ChdbException("embedded ClickHouse engine could not be installed into the dpone cache: "
                + e.getMessage());
        }
    }

    private void install(Path target) throws IOException {
        Path work = Files.createTempDirectory(target.getParent(), "pack-");
        try {
            Path tarball = npmPack(work);
            verifyIntegrity(tarball);
            Path partial = target.resolveSibling("libchdb.so.partial");
            extractLibrary(tarball, partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            deleteTree(work);
        }
    }

    private static Path npmPack(Path work) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(List.of("npm", "pack", PACKAGE + "@" + VERSION, "--silent"))
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("npm.log").toFile());
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new ChdbException("npm is not available to fetch the embedded ClickHouse engine ("
                + PACKAGE + "@" + VERSION + "); install Node.js/npm or set DPONE_CHDB_LIBRARY");
        }
        try {
            if (!process.waitFor(20, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new ChdbException("npm pack " + PACKAGE + "@" + VERSION + " failed; see the npm registry "
                    + "access of this machine, or set DPONE_CHDB_LIBRARY");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChdbException("interrupted while fetching the embedded ClickHouse engine");
        }
        try (var files = Files.list(work)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tgz")).findFirst()
                .orElseThrow(() -> new ChdbException("npm pack produced no tarball"));
        }
    }

    static void verifyIntegrity(Path tarball) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-512");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream in = Files.newInputStream(tarball)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        String actual = "sha512-" + Base64.getEncoder().encodeToString(digest.digest());
        if (!actual.equals(INTEGRITY)) {
            throw new ChdbException("embedded ClickHouse package failed its integrity check; refusing to install it");
        }
    }

    private static void extractLibrary(Path tarball, Path destination) throws IOException {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(tarball));
             TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(raw))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                if (entry.getName().equals(LIBRARY_ENTRY)) {
                    try (OutputStream out = Files.newOutputStream(destination)) {
                        tar.transferTo(out);
                    }
                    try (FileChannel channel = FileChannel.open(destination, StandardOpenOption.WRITE)) {
                        channel.force(true);
                    }
                    return;
                }
            }
        }
        throw new ChdbException("embedded ClickHouse package does not contain " + LIBRARY_ENTRY);
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The container image's build step: installs the pinned engine (the same npm fetch and integrity check as at
     * run time, into {@code $DPONE_CACHE_DIR}) and copies it to {@code <dir>/libchdb.so}, where the image's
     * {@code DPONE_CHDB_LIBRARY} points. Exits 1 with one line on stderr when it cannot.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ChdbInstaller DIR   (installs the pinned libchdb.so as DIR/libchdb.so)");
            System.exit(2);
        }
        try {
            Path library = forUserCache().ensureInstalled();
            Path target = Files.createDirectories(Path.of(args[0])).resolve("libchdb.so");
            Files.copy(library, target, StandardCopyOption.REPLACE_EXISTING);
            System.out.println("installed " + PACKAGE + "@" + VERSION);
        } catch (ChdbException e) {
            System.err.println("dpone: " + e.getMessage());
            System.exit(1);
        }
    }
}
