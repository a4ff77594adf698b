package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;

/** BINARY/VARBINARY/IMAGE as String holding the raw bytes. */
public record BinaryType() implements ColumnType {
    @Override
    public String clickHouseType() {
        return "String";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        return rs.getBytes(index);
    }
}
