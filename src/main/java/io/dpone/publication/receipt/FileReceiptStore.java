package io.dpone.publication.receipt;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.protocol.Receipt;
import io.dpone.publication.protocol.ReceiptStore;
import io.dpone.report.AtomicFiles;
import io.dpone.report.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Receipts as JSON files on the durable artifact store ({@code <root>/receipts/<operation id>.json}), written
 * atomically (temp, fsync, rename, directory fsync). Rewriting an operation's receipt with the same content is a
 * no-op; a different receipt for an operation that already has one is refused, since a committed receipt is
 * immutable.
 */
public final class FileReceiptStore implements ReceiptStore {
    private static final Pattern OPERATION = Pattern.compile("op-[0-9a-f]{24}");
    private final Path dir;

    public FileReceiptStore(Path root) {
        this.dir = root.resolve("receipts");
    }

    @Override
    public Optional<Receipt> find(String operationId) {
        Path file = file(operationId);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(file.toFile(), Receipt.class));
        } catch (IOException e) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_CORRUPT, "receipt",
                "the stored receipt of this operation is unreadable");
        }
    }

    @Override
    public void write(Receipt receipt) {
        Optional<Receipt> existing = find(receipt.operationId());
        if (existing.isPresent()) {
            if (!existing.get().equals(receipt)) {
                throw new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, "receipt",
                    "a different receipt is already committed for this operation");
            }
            return;
        }
        try {
            AtomicFiles.write(file(receipt.operationId()), Json.MAPPER.writerWithDefaultPrettyPrinter()
                .writeValueAsString(receipt));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("receipt not serialisable", e);
        }
    }

    private Path file(String operationId) {
        if (!OPERATION.matcher(operationId).matches()) {
            throw new IllegalArgumentException("not an operation id");
        }
        return dir.resolve(operationId + ".json");
    }
}
