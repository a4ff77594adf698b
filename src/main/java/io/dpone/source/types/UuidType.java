package io.dpone.source.types;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/** UNIQUEIDENTIFIER as UUID, in its canonical textual form (SQL Server's mixed-endian storage is the driver's). */
public record UuidType() implements ColumnType {
    @Override
    public String clickHouseType() {
        return "UUID";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        Object v = rs.getObject(index);
        if (v == null) {
            return null;
        }
        if (v instanceof UUID u) {
            return u;
        }
        try {
            return UUID.fromString(v.toString());
        } catch (IllegalArgumentException e) {
            throw new ValueOutOfRangeException("uniqueidentifier value is not a UUID");
        }
    }

    /** A {@code UUID} or its canonical 36-character text (any case); other spellings are refused. */
    @Override
    public Object coerce(Object value) {
        if (value == null || value instanceof UUID) {
            return value;
        }
        if (value instanceof String s && s.length() == 36) {
            try {
                UUID u = UUID.fromString(s);
                if (u.toString().equalsIgnoreCase(s)) {
                    return u;
                }
            } catch (IllegalArgumentException e) {
                // refused below
            }
        }
        throw new ValueOutOfRangeException("value is not a uniqueidentifier (8-4-4-4-12 hex digits)");
    }
}
