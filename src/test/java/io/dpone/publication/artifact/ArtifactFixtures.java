package io.dpone.publication.artifact;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.manifest.TableRef;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.TestEngines;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/** An H2 source table in SQL Server mode with the type families a publication artifact carries. */
public final class ArtifactFixtures {
    public static final TableRef TABLE = new TableRef("dbo", "orders");

    private ArtifactFixtures() {
    }

    /** A new H2 database holding {@code dbo.orders} with {@code rows} rows; returns its URL. */
    public static String source(int rows) throws SQLException {
        String url = TestEngines.newH2Url();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA dbo");
            st.execute("CREATE TABLE dbo.orders (id INT NOT NULL PRIMARY KEY, customer NVARCHAR(100) NULL,"
                + " amount DECIMAL(18, 4) NOT NULL, placed DATETIME2(7) NULL, flag BIT NOT NULL)");
            for (int i = 1; i <= rows; i++) {
                st.execute("INSERT INTO dbo.orders VALUES (" + i + ", " + (i % 7 == 0 ? "NULL" : "N'cust-" + i + "'")
                    + ", " + i + ".1250, " + (i % 5 == 0 ? "NULL" : "'2024-01-02 03:04:05.1234567'") + ", "
                    + (i % 2) + ")");
            }
        }
        return url;
    }

    public static JdbcSourceReader reader(String url) {
        return JdbcSourceReader.open(new ConnectionSpec("mssql_test", ConnectionType.MSSQL, url, "sa", null, false,
            Map.of()));
    }

    public static ParquetArtifactExtraction extraction(JdbcSourceReader reader, long maxBytes, long budget) {
        return new ParquetArtifactExtraction(reader, TABLE, List.of(), maxBytes, budget);
    }
}
