package io.dpone.cdc.mssql;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.source.types.BinaryType;
import io.dpone.source.types.BoolType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.TimestampType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Base64;
import java.util.List;

/**
 * Keyset paging over a primary key: the predicate "key after the resume key" and the binding of the resume key's
 * values (read back from canonical JSON by each column's type family). String keys are cast to the column's type so
 * they compare in its collation, as ORDER BY does.
 */
final class KeyParameters {
    private KeyParameters() {
    }

    /**
     * {@code (k1 > ?) OR (k1 = ? AND ((k2 > ?) OR ...))} over {@code alias.[k]}; each key column takes two
     * parameters except the last, which takes one.
     */
    static String after(String alias, List<PayloadColumns.Column> key) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < key.size(); i++) {
            String col = alias + "." + io.dpone.source.SqlServerDialect.quote(key.get(i).name());
            String p = param(key.get(i));
            if (i == key.size() - 1) {
                out.append(col).append(" > ").append(p);
            } else {
                out.append("(").append(col).append(" > ").append(p).append(" OR (").append(col).append(" = ")
                    .append(p).append(" AND (");
            }
        }
        out.append(")))".repeat(key.size() - 1));
        return "(" + out + ")";
    }

    private static String param(PayloadColumns.Column c) {
        String cast = c.stringCast();
        return cast == null ? "?" : "CAST(? AS " + cast + ")";
    }

    /** Binds the values for {@link #after} from parameter {@code first}; returns the next free index. */
    static int bind(PreparedStatement st, int first, List<PayloadColumns.Column> key, List<JsonNode> values)
        throws SQLException {
        int i = first;
        for (int k = 0; k < key.size(); k++) {
            int times = k == key.size() - 1 ? 1 : 2;
            for (int t = 0; t < times; t++) {
                set(st, i++, key.get(k), values.get(k));
            }
        }
        return i;
    }

    private static void set(PreparedStatement st, int index, PayloadColumns.Column c, JsonNode v) throws SQLException {
        if (v == null || v.isNull()) {
            throw ResumeJson.invalid();
        }
        var type = c.type();
        if (type instanceof IntegerType) {
            st.setLong(index, v.asLong());
        } else if (type instanceof DecimalType) {
            st.setBigDecimal(index, v.decimalValue());
        } else if (type instanceof FloatType) {
            st.setDouble(index, v.asDouble());
        } else if (type instanceof BoolType) {
            st.setBoolean(index, v.asBoolean());
        } else if (type instanceof DateType) {
            st.setObject(index, LocalDate.parse(v.asText()));
        } else if (type instanceof TimestampType) {
            st.setObject(index, LocalDateTime.parse(v.asText()));
        } else if (type instanceof BinaryType) {
            st.setBytes(index, Base64.getDecoder().decode(v.asText()));
        } else {
            st.setString(index, v.asText()); // StringType, UuidType
        }
    }
}
