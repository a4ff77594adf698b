package io.dpone.testing.mssql.engine;

/**
 * An error as SQL Server reports it in an ERROR token: its number (208 invalid object, 229 permission denied,
 * 1205 deadlock victim, 18456 login failed, 102 syntax, ...), state and severity (16 for a statement error, 14 for
 * a login failure, 13 for a deadlock, 20+ fatal to the connection).
 */
public final class SqlServerError extends Exception {
    private final int number;
    private final int state;
    private final int severity;

    public SqlServerError(int number, int state, int severity, String message) {
        super(message);
        this.number = number;
        this.state = state;
        this.severity = severity;
    }

    public SqlServerError(int number, String message) {
        this(number, 1, 16, message);
    }

    public int number() {
        return number;
    }

    public int state() {
        return state;
    }

    public int severity() {
        return severity;
    }
}
