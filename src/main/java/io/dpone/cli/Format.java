package io.dpone.cli;

/** {@code --format}. */
public enum Format {
    json, text
}
