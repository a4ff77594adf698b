package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** H2 failures as SQL Server error numbers, and the test faults armed with sp_twin_fault. */
class ErrorsAndFaultsTest extends TwinTestBase {
    @Test
    void errorNumbers() throws Exception {
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY, v nvarchar(3) NOT NULL)");
        SqlServerError missing = error(() -> batch("SELECT * FROM dbo.nope"));
        assertEquals(208, missing.number());
        assertEquals("Invalid object name 'dbo.nope'.", missing.getMessage());
        SqlServerError column = error(() -> batch("SELECT [nope] FROM dbo.t"));
        assertEquals(207, column.number());
        assertEquals("Invalid column name 'nope'.", column.getMessage());
        assertEquals(102, error(() -> batch("SELEC 1")).number());
        batch("INSERT INTO dbo.t VALUES (1, N'a')");
        assertEquals(2627, error(() -> batch("INSERT INTO dbo.t VALUES (1, N'b')")).number());
        assertEquals(515, error(() -> batch("INSERT INTO dbo.t VALUES (2, NULL)")).number());
        assertEquals(2628, error(() -> batch("INSERT INTO dbo.t VALUES (3, N'abcd')")).number());
        assertEquals(2812, error(() -> batch("EXEC dbo.nope")).number());
        assertEquals(2714, error(() -> batch("CREATE TABLE dbo.t (x int)")).number());
        assertEquals(3701, error(() -> batch("DROP TABLE dbo.nope")).number());
    }

    @Test
    void errorAfterRowsRaisesADeadlockOnce() throws Exception {
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY)");
        batch("INSERT INTO dbo.t VALUES (1), (2), (3), (4)");
        batch("EXEC sp_twin_fault @error_after_rows = 2");
        RecordingResults out = new RecordingResults();
        SqlServerError e = error(() -> session.batch("SELECT k FROM dbo.t ORDER BY k", out));
        assertEquals(1205, e.number());
        assertEquals(13, e.severity());
        assertEquals(2, out.rows().size());
        assertEquals(4, batch("SELECT k FROM dbo.t").rows().size(), "one-shot");
    }

    @Test
    void dropAndStallAreStateForTheWire() throws Exception {
        batch("EXEC sp_twin_fault @drop_after_rows = 3");
        batch("EXEC sp_twin_fault @stall_ms = 250");
        assertEquals(3, H2Backend.faults().dropAfterRows());
        assertEquals(3, H2Backend.faults().takeDropAfterRows());
        assertEquals(-1, H2Backend.faults().dropAfterRows());
        assertEquals(250, H2Backend.faults().takeStallMs());
        RecordingResults out = new RecordingResults();
        session.call("sp_twin_fault", List.of(new Param("@error_after_rows", null, 0, false)), out);
        assertEquals(0, H2Backend.faults().errorAfterRows());
        batch("EXEC sp_twin_fault @clear = 1");
        assertEquals(-1, H2Backend.faults().errorAfterRows());
    }
}
