package io.dpone.cdc.local;

import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.CdcSourceReaderContract;
import io.dpone.cdc.StreamIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The events-JSON reader keeps the {@link CdcSourceReader} contract. The file is an exported batch: each insert
 * rewrites it with every change so far (the reader replays what lies at or below the offset; the runtime drops it),
 * and a file larger than a tick's {@code maxEvents} is refused, not cut.
 */
class JsonEventsReaderContractTest extends CdcSourceReaderContract {
    private static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));

    @TempDir
    Path dir;

    @Override
    protected Source open() throws Exception {
        Path file = dir.resolve("events.json");
        List<String> changes = new ArrayList<>();
        write(file, changes);
        JsonEventsReader reader = new JsonEventsReader(file, STREAM);
        return new Source() {
            @Override
            public void insert(int key) throws Exception {
                changes.add("""
                    {"operation": "insert", "position": "0x%x", "sequence": 0, "source_schema": "dbo",
                     "source_table": "orders", "data": {"order_id": %d, "status": "new"},
                     "metadata": {"backend": "mssql_cdc"}}""".formatted(changes.size() + 1, key));
                write(file, changes);
            }

            @Override
            public CdcSourceReader reader() {
                return reader;
            }

            @Override
            public void close() {
            }
        };
    }

    private static void write(Path file, List<String> changes) throws Exception {
        String last = changes.isEmpty() ? null : "0x" + Integer.toHexString(changes.size());
        String offset = last == null ? "null"
            : "{\"backend\": \"mssql_cdc\", \"token\": \"" + last + "\", \"snapshot_complete\": true}";
        Files.writeString(file, "{\"high_watermark\": " + (last == null ? "null" : "\"" + last + "\"")
            + ", \"next_offset\": " + offset + ", \"changes\": [" + String.join(",\n", changes) + "]}");
    }
}
