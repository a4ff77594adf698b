package io.dpone.testing.mssql.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A backend in a temporary directory with one session on database {@code shop}. */
abstract class TwinTestBase {
    @TempDir
    Path dir;
    H2Backend backend;
    TwinSession session;

    @BeforeEach
    void openTwin() throws Exception {
        H2Backend.faults().clear();
        backend = new H2Backend(dir);
        backend.createDatabase("shop");
        session = backend.open("shop");
    }

    @AfterEach
    void closeTwin() {
        session.close();
        backend.close();
        H2Backend.faults().clear();
    }

    RecordingResults batch(String sql) throws Exception {
        return batch(session, sql);
    }

    static RecordingResults batch(TwinSession s, String sql) throws Exception {
        RecordingResults out = new RecordingResults();
        s.batch(sql, out);
        return out;
    }

    /** {@code sp_executesql} with {@code @P0..} parameters as mssql-jdbc sends them. */
    RecordingResults exec(String sql, String definitions, Object... values) throws Exception {
        return exec(session, sql, definitions, values);
    }

    static RecordingResults exec(TwinSession s, String sql, String definitions, Object... values) throws Exception {
        List<Param> params = new ArrayList<>();
        String[] defs = TableDdl.split(definitions).toArray(new String[0]);
        for (int i = 0; i < values.length; i++) {
            String[] d = defs[i].trim().split("\\s+", 2);
            params.add(new Param(d[0], SqlType.parse(d[1]), values[i], false));
        }
        RecordingResults out = new RecordingResults();
        s.execute(sql, definitions, params, out);
        return out;
    }

    static SqlServerError error(ThrowingRunnable r) {
        try {
            r.run();
        } catch (SqlServerError e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected a SqlServerError, got " + e, e);
        }
        throw new AssertionError("expected a SqlServerError");
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
