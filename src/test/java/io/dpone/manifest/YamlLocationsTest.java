package io.dpone.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a path of a YAML document starts, in the validators' path syntax; and the manifest's blockers carry it. */
class YamlLocationsTest {
    private static final String DOC = """
        a:
          b: 1
          list:
            - x
            - {c: 2, d: [7, 8]}
        "dotted.key": {e: 3}
        """;

    @Test
    void keysListItemsAndNestedValuesHaveTheirStart() {
        YamlLocations l = YamlLocations.of(DOC);
        assertEquals(Optional.of(new YamlLocations.Location(1, 1)), l.find("a"));
        assertEquals(Optional.of(new YamlLocations.Location(2, 3)), l.find("a.b"));
        assertEquals(Optional.of(new YamlLocations.Location(4, 7)), l.find("a.list[0]"));
        assertEquals(Optional.of(new YamlLocations.Location(5, 7)), l.find("a.list[1]"));
        assertEquals(Optional.of(new YamlLocations.Location(5, 14)), l.find("a.list[1].d"));
        assertEquals(Optional.of(new YamlLocations.Location(5, 21)), l.find("a.list[1].d[1]"));
        assertEquals(Optional.of(new YamlLocations.Location(6, 16)), l.find("dotted.key.e"));
    }

    @Test
    void aMissingPathFallsBackToItsParent() {
        YamlLocations l = YamlLocations.of(DOC);
        assertEquals(l.find("a.list[1]"), l.find("a.list[1].missing"));
        assertEquals(l.find("$"), l.find("nowhere"));
        assertTrue(YamlLocations.of("a: [").find("a").isEmpty(), "a document that does not parse has no locations");
    }

    @Test
    void manifestSchemaBlockersCarryLineAndColumn(@TempDir Path dir) throws Exception {
        String example = Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"));
        Path bad = Files.writeString(dir.resolve("bad.yaml"), example + "colour: blue\n");
        Blocker b = org.junit.jupiter.api.Assertions.assertThrows(DponeException.class, () -> ManifestLoader.load(bad))
            .blockers().get(0);
        assertEquals("manifest.unknown_key", b.code());
        assertEquals("colour", b.subject());
        assertEquals(Map.of("line", (int) example.lines().count() + 1, "column", 1), b.details());
    }
}
