package io.dpone.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link ObjectStore} does (its Javadoc made executable): the S3 store against S3Proxy and the in-memory
 * fake both pass it. {@link #store()} returns an empty store (a fresh bucket).
 */
abstract class ObjectStoreContract {
    @TempDir
    Path dir;

    abstract ObjectStore store();

    private Path file(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    private static byte[] read(ObjectStore store, String key) throws IOException {
        try (InputStream in = store.get(key)) {
            return in.readAllBytes();
        }
    }

    @Test
    void aPutObjectReadsBackByteForByteAndAPutReplacesIt() throws IOException {
        ObjectStore s = store();
        byte[] bytes = new byte[70_001];
        new Random(7).nextBytes(bytes);
        s.put("run/chunk-000000.parquet", file("a", bytes));
        assertArrayEquals(bytes, read(s, "run/chunk-000000.parquet"));
        s.put("run/chunk-000000.parquet", file("b", new byte[] {1, 2, 3}));
        assertArrayEquals(new byte[] {1, 2, 3}, read(s, "run/chunk-000000.parquet"));
        s.put("run/empty", file("c", new byte[0]));
        assertArrayEquals(new byte[0], read(s, "run/empty"));
    }

    @Test
    void aMissingKeyIsNotFound() {
        ObjectStoreException e = assertThrows(ObjectStoreException.class, () -> store().get("nowhere/x"));
        assertEquals(ObjectStoreException.Reason.NOT_FOUND, e.reason());
    }

    @Test
    void listReturnsEveryKeyUnderThePrefixInLexicographicOrder() throws IOException {
        ObjectStore s = store();
        Path one = file("one", new byte[] {1});
        List<String> expected = new ArrayList<>();
        for (int i = 24; i >= 0; i--) { // put out of order; more keys than one small page
            String key = String.format("p/run-1/chunk-%06d.bin", i);
            s.put(key, one);
            expected.add(0, key);
        }
        s.put("p/run-10/other.bin", one);
        s.put("q/elsewhere.bin", one);
        assertEquals(expected, s.list("p/run-1/"));
        assertEquals(27, s.list("").size());
        assertEquals(List.of(), s.list("p/none/"));
    }

    @Test
    void deletePrefixDeletesExactlyTheKeysUnderItAndCountsThem() throws IOException {
        ObjectStore s = store();
        Path one = file("one", new byte[] {1});
        for (int i = 0; i < 12; i++) {
            s.put("runs/r1/" + i, one);
        }
        s.put("runs/r10/keep", one);
        s.put("runs/r2/keep", one);
        assertEquals(12, s.deletePrefix("runs/r1/"));
        assertEquals(List.of("runs/r10/keep", "runs/r2/keep"), s.list("runs/"));
        assertEquals(0, s.deletePrefix("runs/r1/"));
    }

    @Test
    void anEmptyPrefixNeverEmptiesTheStore() throws IOException {
        ObjectStore s = store();
        s.put("k", file("one", new byte[] {1}));
        assertThrows(IllegalArgumentException.class, () -> s.deletePrefix(""));
        assertThrows(IllegalArgumentException.class, () -> s.deletePrefix(null));
        assertEquals(List.of("k"), s.list(""));
    }

    @Test
    void deletingAMissingKeyIsNotAnErrorAndDeletingAKeyRemovesOnlyIt() throws IOException {
        ObjectStore s = store();
        s.delete("missing/key");
        Path one = file("one", new byte[] {1});
        s.put("a/1", one);
        s.put("a/10", one);
        s.delete("a/1");
        assertEquals(List.of("a/10"), s.list("a/"));
    }

    @Test
    void keysAreRelativeToTheBucket() throws IOException {
        ObjectStore s = store();
        Path one = file("one", new byte[] {1});
        assertThrows(IllegalArgumentException.class, () -> s.put("/absolute", one));
        assertThrows(IllegalArgumentException.class, () -> s.put("", one));
        assertThrows(IllegalArgumentException.class, () -> s.get("/absolute"));
        assertThrows(IllegalArgumentException.class, () -> s.delete(""));
    }
}
