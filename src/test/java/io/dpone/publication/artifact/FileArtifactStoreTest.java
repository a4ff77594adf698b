package io.dpone.publication.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.source.JdbcSourceReader;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileArtifactStoreTest {
    @TempDir
    Path dir;

    @Test
    void relativeRootIsATypedBlocker() {
        DponeException e = assertThrows(DponeException.class, () -> new FileArtifactStore(Path.of("relative/store")));
        assertEquals(BlockerCode.PUBLICATION_ARTIFACT_STORE_INVALID.code(), e.blockers().get(0).code());
    }

    @Test
    void sealThenFindVerifiesAndResealIsIdempotent() throws Exception {
        FileArtifactStore store = new FileArtifactStore(dir.resolve("store"));
        assertTrue(store.find("op-1").isEmpty());
        try (JdbcSourceReader reader = ArtifactFixtures.reader(ArtifactFixtures.source(50))) {
            SealedArtifact sealed = store.seal("op-1", ArtifactFixtures.extraction(reader, 0, 0));
            assertEquals(50, sealed.rows());
            assertEquals("Parquet", sealed.format());
            assertEquals(List.of("id", "customer", "amount", "placed", "flag"),
                sealed.columns().stream().map(c -> c.name()).toList());
            assertEquals(SealedArtifact.schemaDigest(sealed.columns()), sealed.schemaDigest());
            assertEquals(sealed, store.find("op-1").orElseThrow());
            Path file = store.open(sealed);
            assertEquals(sealed.bytes(), Files.size(file));
            assertTrue(java.util.Collections.disjoint(Files.getPosixFilePermissions(file), java.util.Set.of(
                java.nio.file.attribute.PosixFilePermission.OWNER_WRITE,
                java.nio.file.attribute.PosixFilePermission.GROUP_WRITE,
                java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE)), "sealed artifacts are read-only");
            assertTrue(Files.isRegularFile(file.resolveSibling(FileArtifactStore.SEAL)));
            AtomicInteger calls = new AtomicInteger();
            SealedArtifact again = store.seal("op-1", new ArtifactExtraction() {
                @Override
                public Result writeTo(Path f) {
                    calls.incrementAndGet();
                    return new Result(0, List.of());
                }

                @Override
                public String format() {
                    return "Parquet";
                }
            });
            assertEquals(sealed, again);
            assertEquals(0, calls.get(), "a sealed operation is never extracted again");
        }
    }

    @Test
    void aFlippedByteIsCorrupt() throws Exception {
        FileArtifactStore store = new FileArtifactStore(dir.resolve("store"));
        SealedArtifact sealed;
        try (JdbcSourceReader reader = ArtifactFixtures.reader(ArtifactFixtures.source(20))) {
            sealed = store.seal("op-2", ArtifactFixtures.extraction(reader, 0, 0));
        }
        Path file = store.open(sealed);
        assertTrue(file.toFile().setWritable(true));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(sealed.bytes() / 2);
            int b = raf.read();
            raf.seek(sealed.bytes() / 2);
            raf.write(b ^ 0x01);
        }
        DponeException e = assertThrows(DponeException.class, () -> store.find("op-2"));
        assertEquals(BlockerCode.PUBLICATION_ARTIFACT_CORRUPT.code(), e.blockers().get(0).code());
        assertThrows(DponeException.class, () -> store.open(sealed));
        assertFalse(e.getMessage().contains(dir.toString()), "no local path in the message");
    }

    @Test
    void interruptedExtractionLeavesNoSeal() throws Exception {
        FileArtifactStore store = new FileArtifactStore(dir.resolve("store"));
        assertThrows(IllegalStateException.class, () -> store.seal("op-3", new ArtifactExtraction() {
            @Override
            public Result writeTo(Path f) {
                throw new IllegalStateException("crash mid-extraction");
            }

            @Override
            public String format() {
                return "Parquet";
            }
        }));
        assertTrue(store.find("op-3").isEmpty());
        try (var files = Files.list(dir.resolve("store").resolve("op-3"))) {
            assertEquals(0, files.count(), "the temp file is removed");
        }
    }

    @Test
    void boundsAreTypedBlockers() throws Exception {
        FileArtifactStore store = new FileArtifactStore(dir.resolve("store"));
        try (JdbcSourceReader reader = ArtifactFixtures.reader(ArtifactFixtures.source(30))) {
            DponeException rows = assertThrows(DponeException.class,
                () -> store.seal("op-4", ArtifactFixtures.extraction(reader, 0, 29)));
            assertEquals(BlockerCode.PUBLICATION_EXTERNAL_ROW_BUDGET_EXCEEDED.code(), rows.blockers().get(0).code());
            DponeException bytes = assertThrows(DponeException.class,
                () -> store.seal("op-5", ArtifactFixtures.extraction(reader, 100, 0)));
            assertEquals(BlockerCode.SOURCE_MAX_BYTES_EXCEEDED.code(), bytes.blockers().get(0).code());
            assertTrue(store.find("op-4").isEmpty());
            assertTrue(store.find("op-5").isEmpty());
            assertEquals(30, store.seal("op-6", ArtifactFixtures.extraction(reader, 1 << 20, 30)).rows());
        }
    }
}
