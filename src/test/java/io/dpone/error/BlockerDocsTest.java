package io.dpone.error;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/blockers.md lists exactly the codes in {@link BlockerCode}. */
class BlockerDocsTest {
    @Test
    void docsListEveryCodeAndNoOther() throws Exception {
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\| `([a-z_]+\\.[a-z_.]+)` \\|").matcher(Files.readString(Path.of("docs/blockers.md")));
        while (m.find()) {
            documented.add(m.group(1));
        }
        Set<String> inCode = Arrays.stream(BlockerCode.values()).map(BlockerCode::code)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(inCode, documented);
    }
}
