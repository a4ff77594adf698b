package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;

/** BIT as ClickHouse Bool. */
public record BoolType() implements ColumnType {
    @Override
    public String clickHouseType() {
        return "Bool";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        boolean v = rs.getBoolean(index);
        return rs.wasNull() ? null : v;
    }

    /** {@code true}/{@code false}, or SQL Server's bit values 0 and 1. */
    @Override
    public Object coerce(Object value) {
        if (value == null || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number n && (n.toString().equals("0") || n.toString().equals("1"))) {
            return n.toString().equals("1");
        }
        throw new ValueOutOfRangeException("value is not a bit (true, false, 0 or 1)");
    }
}
