package io.dpone.publication.protocol;

import java.util.Optional;

/** Durable receipts, one per operation; writing is atomic and idempotent (the same receipt may be written twice). */
public interface ReceiptStore {
    Optional<Receipt> find(String operationId);

    void write(Receipt receipt);
}
