package io.dpone.testing.mssql.engine;

/** One column of a result set as the wire describes it in COLMETADATA: its name and declared SQL Server type. */
public record ResultColumn(String name, SqlType type, boolean nullable) {
}
