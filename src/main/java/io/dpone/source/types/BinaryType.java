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

    /** Bytes, or their standard base64 text (the form a JSON export and the CDC log's JSON text carry). */
    @Override
    public Object coerce(Object value) {
        if (value == null || value instanceof byte[]) {
            return value;
        }
        if (value instanceof String s) {
            try {
                return java.util.Base64.getDecoder().decode(s);
            } catch (IllegalArgumentException e) {
                throw new ValueOutOfRangeException("value is not base64 text");
            }
        }
        throw new ValueOutOfRangeException("value is not binary");
    }
}
