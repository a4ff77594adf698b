package io.dpone.testing.mssql.engine;

/**
 * One RPC parameter as the client sent it: its name ({@code @P0}, or empty when positional), the type it declared
 * on the wire, and its value in the Java form {@link Results#row} uses for that type (null for NULL).
 */
public record Param(String name, SqlType type, Object value, boolean output) {
}
