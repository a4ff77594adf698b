package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;

/** TINYINT (UInt8, SQL Server's is unsigned), SMALLINT (Int16), INT (Int32), BIGINT (Int64). */
public record IntegerType(int bits, boolean unsigned) implements ColumnType {
    @Override
    public String clickHouseType() {
        return (unsigned ? "UInt" : "Int") + bits;
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        long v = rs.getLong(index);
        if (rs.wasNull()) {
            return null;
        }
        if (unsigned && (v < 0 || v >= (1L << bits))) {
            throw new ValueOutOfRangeException("value outside " + clickHouseType());
        }
        return v;
    }
}
