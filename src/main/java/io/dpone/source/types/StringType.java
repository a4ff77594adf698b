package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;

/** CHAR/VARCHAR/NCHAR/NVARCHAR/TEXT/NTEXT as String; every code point is kept (UTF-8 on the wire). */
public record StringType() implements ColumnType {
    @Override
    public String clickHouseType() {
        return "String";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        return rs.getString(index);
    }

    @Override
    public Object coerce(Object value) {
        if (value == null || value instanceof String) {
            return value;
        }
        throw new ValueOutOfRangeException("value is not text");
    }
}
