package io.dpone.connect;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * How dpone creates files and directories that hold rows, state or diagnostics, so that no other user can read them
 * and no link planted at a predictable name redirects a write. Directories are created 0700; where dpone owns the place
 * ({@link #ownDirectory}) an existing one this user owns is narrowed to 0700 and one another user owns (link or not)
 * is refused. Files are 0600 and created only with {@code O_EXCL} ({@link StandardOpenOption#CREATE_NEW}: a file or
 * link already at the name, dangling or not, fails the call) or, for lock files that outlive a process, opened with
 * {@code O_NOFOLLOW}. Files whose name need not be stable get a random one ({@link #tempFile}). On a file system
 * without POSIX permissions only the link rules apply. The one helper for this: {@code route}, {@code cdc},
 * {@code clickhouse}, {@code format}, {@code storage}, {@code report} and {@code watchdog} all sit above
 * {@code connect}.
 */
public final class PrivateFiles {
    public static final Set<PosixFilePermission> DIRECTORY = Collections.unmodifiableSet(
        PosixFilePermissions.fromString("rwx------"));
    public static final Set<PosixFilePermission> FILE = Collections.unmodifiableSet(
        PosixFilePermissions.fromString("rw-------"));
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Integer UID = ownUid();

    private PrivateFiles() {
    }

    /**
     * A write refused because the place is not private: a link at the name of a file dpone creates, or a directory
     * dpone owns by its place that belongs to another user or is shared. The message names the file, never its path.
     */
    public static final class Unsafe extends IOException {
        private static final long serialVersionUID = 1L;

        Unsafe(String message) {
            super(message);
        }
    }

    /**
     * {@code dir}, created with its missing parents 0700. An existing directory is left as it is: it may be one a
     * person named ({@code --output-dir}), which dpone has no business narrowing.
     */
    public static Path directory(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath();
        List<Path> missing = new ArrayList<>();
        for (Path p = abs; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            missing.add(0, p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p, dirAttributes());
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another thread or process created it meanwhile: checked below like any existing one
            }
        }
        if (!Files.isDirectory(abs)) {
            throw new Unsafe(abs.getFileName() + " is not a directory");
        }
        return dir;
    }

    /**
     * A directory dpone owns by its place (the embedded engine's data, the embedded S3, spooled chunks, diagnostics):
     * {@link #directory(Path)}, then an existing one that another user owns (the link or its target: a link planted
     * at a predictable name) or that is sticky ({@code /tmp}) is refused, and one this user owns is narrowed to 0700,
     * so its contents are out of other users' reach whatever their own modes.
     */
    public static Path ownDirectory(Path dir) throws IOException {
        directory(dir);
        Path abs = dir.toAbsolutePath();
        refuseForeign(abs);
        if (POSIX) {
            if ((mode(abs) & 01000) != 0) {
                throw new Unsafe(abs.getFileName() + " is a shared (sticky) directory; refused");
            }
            if (!Files.getPosixFilePermissions(abs).equals(DIRECTORY)) {
                Files.setPosixFilePermissions(abs, DIRECTORY);
            }
        }
        return dir;
    }

    /** A new file at {@code file} (0600, {@code O_EXCL}: nothing, not even a dangling link, may be there) to write. */
    public static OutputStream createNew(Path file) throws IOException {
        return Channels.newOutputStream(createNewChannel(file));
    }

    /** As {@link #createNew(Path)}, as a channel open for writing (and reading, with {@code READ} in {@code more}). */
    public static FileChannel createNewChannel(Path file, OpenOption... more) throws IOException {
        java.util.Set<OpenOption> options = new java.util.HashSet<>(List.of(StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
        options.addAll(List.of(more));
        try {
            return FileChannel.open(file, options, fileAttributes());
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw Files.isSymbolicLink(file) ? linked(file) : e;
        }
    }

    /**
     * A new file at {@code file} to write, replacing what is there: a file or link at the name is removed (a link itself,
     * never its target), then the file is created as {@link #createNew(Path)} does. For files a run rewrites under a
     * stable name (a chunk, a CDC batch's spool); a link planted between the two steps fails the creation.
     */
    public static OutputStream replace(Path file) throws IOException {
        Files.deleteIfExists(file);
        return createNew(file);
    }

    /** Narrows an existing file (not following a link) to 0600: for files a library creates with its own modes. */
    public static void narrow(Path file) throws IOException {
        if (POSIX && !Files.isSymbolicLink(file)) {
            Files.setPosixFilePermissions(file, FILE);
        }
    }

    /** A new empty file with a random name in {@code dir} (0600, created with {@code O_EXCL}). */
    public static Path tempFile(Path dir, String prefix, String suffix) throws IOException {
        return POSIX ? Files.createTempFile(dir, prefix, suffix, PosixFilePermissions.asFileAttribute(FILE))
            : Files.createTempFile(dir, prefix, suffix);
    }

    /**
     * A lock file that outlives a process, opened for reading and writing and created 0600 when missing; a link at
     * its name (dangling or not) is refused ({@code O_NOFOLLOW}), never followed, so it cannot create or truncate
     * another file.
     */
    public static FileChannel lockFile(Path file) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), fileAttributes());
        } catch (IOException e) {
            throw Files.isSymbolicLink(file) ? linked(file) : e; // O_NOFOLLOW: ELOOP on a link, dangling or not
        }
        try {
            if (POSIX && !Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS).equals(FILE)) {
                Files.setPosixFilePermissions(file, FILE);
            }
        } catch (IOException notOurs) {
            // another user's lock file in a shared cache: it holds a pid, nothing private; the lock still works
        }
        return channel;
    }

    /** True when {@code file} (not following a link) is a regular file: not a FIFO, a device, a socket or a directory. */
    public static boolean regularInput(Path file) {
        return Files.isRegularFile(file) && !isSpecial(file);
    }

    private static boolean isSpecial(Path file) {
        try {
            return Boolean.TRUE.equals(Files.getAttribute(file, "basic:isOther"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static Unsafe linked(Path file) {
        return new Unsafe("a link is planted at " + file.getFileName() + "; it was not followed");
    }

    private static void refuseForeign(Path dir) throws IOException {
        if (UID == null) {
            return;
        }
        for (LinkOption[] how : List.of(new LinkOption[] {LinkOption.NOFOLLOW_LINKS}, new LinkOption[0])) {
            Object owner = Files.getAttribute(dir, "unix:uid", how);
            if (owner instanceof Integer uid && !uid.equals(UID)) {
                throw new Unsafe(dir.getFileName() + " belongs to another user (uid " + uid + "); refused");
            }
        }
    }

    private static int mode(Path p) {
        try {
            return Files.getAttribute(p, "unix:mode") instanceof Integer mode ? mode : 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 0;
        }
    }

    private static FileAttribute<?>[] dirAttributes() {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIRECTORY)} : new FileAttribute<?>[0];
    }

    private static FileAttribute<?>[] fileAttributes() {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }

    /** This process's uid (the owner of {@code /proc/self}), or null where it cannot be read (then no owner check). */
    private static Integer ownUid() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid") instanceof Integer uid ? uid : null;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }
}
