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
}
