package io.dpone.cdc.runtime;

/** {@code --mode}: {@code local} reads an events JSON and writes a local sink and checkpoint; {@code live} uses connectors. */
public enum CdcMode {
    local, live
}
