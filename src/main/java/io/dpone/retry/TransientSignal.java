package io.dpone.retry;

/**
 * An exception whose own package has decided whether it is transient, from facts only its client exposes (an S3
 * status code, say); {@link TransientFaults} takes its word.
 */
public interface TransientSignal {
    boolean transientFault();
}
