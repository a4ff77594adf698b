package io.dpone.serve;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** Run ids of scheduled runs: {@code <name>-<UTC yyyyMMdd'T'HHmmssSSS'Z'>}, valid for {@code --run-id}. */
final class RunIds {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'");

    private RunIds() {
    }

    static String next(String name) {
        return name + "-" + ZonedDateTime.now(ZoneOffset.UTC).format(TIME);
    }
}
