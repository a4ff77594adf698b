package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;

/** REAL as Float32 and FLOAT as Float64; values travel by their exact bits (NaN payloads and -0.0 included). */
public record FloatType(int bits) implements ColumnType {
    @Override
    public String clickHouseType() {
        return "Float" + bits;
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        if (bits == 32) {
            float f = rs.getFloat(index);
            return rs.wasNull() ? null : f;
        }
        double d = rs.getDouble(index);
        return rs.wasNull() ? null : d;
    }
}
