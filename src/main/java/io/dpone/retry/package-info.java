/**
 * Transient faults on the wire: the one classifier ({@link io.dpone.retry.TransientFaults}) of a failure on any
 * connection (ClickHouse HTTP, SQL Server TDS, S3) into transient and permanent, and the per-run retry budget
 * ({@link io.dpone.retry.RetryBudget}) under which idempotent operations, and only those, are tried again with
 * exponential backoff and jitter. Low in the layer order (just above {@code error}), so every connection's package can
 * classify its own failures where it still sees them raw.
 */
package io.dpone.retry;
