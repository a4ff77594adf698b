package io.dpone.publication.artifact;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.report.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The artifact store on durable worker storage: {@code root/<operation id>/artifact.<ext>} plus
 * {@code seal.json}. Sealing extracts into a temp file in the same directory, fsyncs it, renames it into place,
 * makes it read-only, fsyncs the directory and only then writes the seal atomically: a seal exists only for a
 * complete file. A file without a seal is an interrupted extraction and is redone. Every {@link #find} and
 * {@link #open} re-hashes the file against its seal.
 */
public final class FileArtifactStore implements ArtifactStore {
    private static final Pattern OPERATION = Pattern.compile("^[0-9a-z][0-9a-z-]{0,79}$");
    static final String SEAL = "seal.json";

    private final Path root;

    /** {@code root} must be absolute ({@code DPONE_EXTERNAL_ARTIFACT_STORE}); it is created when missing. */
    public FileArtifactStore(Path root) {
        if (root == null || !root.isAbsolute()) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_STORE_INVALID, "external_artifact_store_path",
                "the external artifact store must be an absolute path");
        }
        try {
            io.dpone.connect.PrivateFiles.directory(root); // missing directories 0700: artifacts hold rows
        } catch (IOException e) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_STORE_INVALID, "external_artifact_store_path",
                "the external artifact store cannot be created");
        }
        if (!Files.isDirectory(root) || !Files.isWritable(root)) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_STORE_INVALID, "external_artifact_store_path",
                "the external artifact store is not a writable directory");
        }
        this.root = root.normalize();
    }

    @Override
    public Optional<SealedArtifact> find(String operationId) {
        Path dir = dir(operationId);
        Path seal = dir.resolve(SEAL);
        if (!Files.isRegularFile(seal)) {
            return Optional.empty();
        }
        SealedArtifact artifact;
        try {
            artifact = ArtifactSeal.read(Files.readString(seal, StandardCharsets.UTF_8), operationId);
        } catch (IOException e) {
            throw ArtifactSeal.corrupt(operationId, "seal is unreadable");
        }
        verify(artifact, file(dir, artifact.format()));
        return Optional.of(artifact);
    }

    @Override
    public synchronized SealedArtifact seal(String operationId, ArtifactExtraction extraction) {
        Optional<SealedArtifact> existing = find(operationId);
        if (existing.isPresent()) {
            return existing.get();
        }
        Path dir = dir(operationId);
        Path target = file(dir, extraction.format());
        Path tmp = null;
        try {
            io.dpone.connect.PrivateFiles.directory(dir);
            tmp = io.dpone.connect.PrivateFiles.tempFile(dir, ".artifact", ".tmp"); // random name, 0600
            ArtifactExtraction.Result result = extraction.writeTo(tmp);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            String sha256 = sha256(tmp);
            long bytes = Files.size(tmp);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
            readOnly(target);
            fsyncDirectory(dir);
            SealedArtifact artifact = new SealedArtifact(operationId, sha256,
                SealedArtifact.schemaDigest(result.columns()), bytes, result.rows(), result.columns(),
                extraction.format());
            AtomicFiles.write(dir.resolve(SEAL), ArtifactSeal.write(artifact));
            return artifact;
        } catch (IOException | UncheckedIOException e) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_WRITE_FAILED, "operation " + operationId,
                "the artifact of operation " + operationId + " cannot be written to the artifact store ("
                    + e.getClass().getSimpleName() + ")");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a stray temp file is never sealed; the next seal attempt writes a new one
                }
            }
        }
    }

    @Override
    public Path open(SealedArtifact artifact) {
        SealedArtifact recorded = find(artifact.operationId())
            .orElseThrow(() -> ArtifactSeal.corrupt(artifact.operationId(), "no seal in the artifact store"));
        if (!recorded.equals(artifact)) {
            throw ArtifactSeal.corrupt(artifact.operationId(), "the recorded facts differ from the seal");
        }
        return file(dir(artifact.operationId()), artifact.format());
    }

    private Path dir(String operationId) {
        if (operationId == null || !OPERATION.matcher(operationId).matches()) {
            throw new IllegalArgumentException("operation id must be lower-case letters, digits and '-'");
        }
        return root.resolve(operationId);
    }

    private static Path file(Path dir, String format) {
        if (!format.matches("^[A-Za-z]{1,32}$")) {
            throw new IllegalArgumentException("invalid artifact format name");
        }
        return dir.resolve("artifact." + format.toLowerCase(java.util.Locale.ROOT));
    }

    private static void verify(SealedArtifact artifact, Path file) {
        try {
            if (Files.size(file) != artifact.bytes()) {
                throw ArtifactSeal.corrupt(artifact.operationId(), "size differs");
            }
            if (!sha256(file).equals(artifact.sha256())) {
                throw ArtifactSeal.corrupt(artifact.operationId(), "SHA-256 differs");
            }
        } catch (NoSuchFileException e) {
            throw ArtifactSeal.corrupt(artifact.operationId(), "the artifact file is missing");
        } catch (IOException e) {
            throw ArtifactSeal.corrupt(artifact.operationId(), "the artifact file is unreadable");
        }
    }

    static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                md.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static void readOnly(Path file) throws IOException {
        if (!file.toFile().setReadOnly()) {
            throw new IOException("cannot make the artifact read-only");
        }
    }

    private static void fsyncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // some file systems cannot fsync a directory; the rename is still atomic
        }
    }
}
