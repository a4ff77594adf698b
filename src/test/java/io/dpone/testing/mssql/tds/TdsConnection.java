package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.Param;
import io.dpone.testing.mssql.engine.SqlServerError;
import io.dpone.testing.mssql.engine.SqlType;
import io.dpone.testing.mssql.engine.TwinSession;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * One client connection, as SQL Server serves it: PRELOGIN (encryption negotiated), TLS inside the handshake when
 * the client asks for encryption, LOGIN7 (SQL authentication; a wrong login is error 18456 and the connection
 * closes), then requests until the client closes: SQL batches, RPCs ({@code sp_executesql}, {@code sp_prepexec},
 * {@code sp_prepare}, {@code sp_execute}, {@code sp_unprepare}, procedures by name) and attentions.
 */
public final class TdsConnection implements Runnable {
    private static final int ENCRYPT_OFF = 0;
    private static final int ENCRYPT_ON = 1;
    private static final int ENCRYPT_NOT_SUP = 2;
    private static final int ENCRYPT_REQ = 3;

    private final Socket socket;
    private final SessionOpener sessions;
    private final LoginPolicy login;
    private final SSLContext tls;
    private final WireFaults faults;
    private InputStream in;
    private OutputStream out;
    private TdsWriter w;
    private TdsMessage pushedBack;
    private TwinSession session;

    public TdsConnection(Socket socket, SessionOpener sessions, LoginPolicy login, SSLContext tls, WireFaults faults) {
        this.socket = socket;
        this.sessions = sessions;
        this.login = login;
        this.tls = tls;
        this.faults = faults;
    }

    @Override
    public void run() {
        try (socket) {
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
            w = new TdsWriter(out, 4096);
            if (!handshake()) {
                return;
            }
            serve();
        } catch (ResponseStream.DropConnection e) {
            // the fault asked for it: the socket closes with the result half sent
        } catch (IOException | TdsProtocolException e) {
            // the client went away or spoke something else: SQL Server closes the connection too
        } finally {
            if (session != null) {
                session.close();
            }
        }
    }

    private boolean handshake() throws IOException {
        TdsMessage pre = TdsPackets.read(in);
        if (pre == null || pre.type() != TdsPackets.PRELOGIN) {
            return false;
        }
        int requested = Prelogin.encryption(pre.payload());
        int answer = requested == ENCRYPT_ON || requested == ENCRYPT_REQ ? ENCRYPT_ON : ENCRYPT_NOT_SUP;
        if (answer == ENCRYPT_ON && tls == null) {
            answer = ENCRYPT_NOT_SUP; // the client then refuses, as against a server without a certificate
        }
        w.type(TdsPackets.REPLY);
        Prelogin.writeResponse(w, answer);
        w.endMessage();
        if (answer == ENCRYPT_ON) {
            TlsChannel channel = new TlsChannel(tls, in, out);
            channel.handshake();
            in = new BufferedInputStream(channel.input(), 64 * 1024);
            out = new BufferedOutputStream(channel.output(), 64 * 1024);
            w.output(out);
        }
        TdsMessage m = TdsPackets.read(in);
        if (m == null || m.type() != TdsPackets.LOGIN7) {
            return false;
        }
        Login7 l = Login7.parse(m.payload());
        boolean accepted = login.accepts(l.user(), l.password());
        java.util.Arrays.fill(l.password(), '\0');
        if (!accepted) {
            Tokens.message(w, Tokens.ERROR, 18456, 1, 14, "Login failed for user '" + l.user() + "'.");
            Tokens.done(w, Tokens.DONE, Tokens.DONE_ERROR, 0, 0);
            w.endMessage();
            return false;
        }
        String database = l.database().isEmpty() ? "master" : l.database();
        try {
            session = sessions.open(database);
        } catch (SqlServerError e) {
            Tokens.message(w, Tokens.ERROR, e.number(), e.state(), e.severity(), e.getMessage());
            Tokens.done(w, Tokens.DONE, Tokens.DONE_ERROR, 0, 0);
            w.endMessage();
            return false;
        }
        int packetSize = l.packetSize() <= 0 ? 4096 : Math.max(512, Math.min(32767, l.packetSize()));
        Tokens.envChange(w, 1, session.database(), "master");
        Tokens.message(w, Tokens.INFO, 5701, 2, 0, "Changed database context to '" + session.database() + "'.");
        Tokens.collationChange(w, Collations.of(SqlType.DEFAULT_COLLATION).tds());
        Tokens.envChange(w, 2, "us_english", "");
        Tokens.message(w, Tokens.INFO, 5703, 1, 0, "Changed language setting to us_english.");
        Tokens.loginAck(w);
        Tokens.envChange(w, 4, Integer.toString(packetSize), "4096");
        Tokens.done(w, Tokens.DONE, 0, 0, 0);
        w.endMessage();
        w.packetSize(packetSize);
        return true;
    }

    private void serve() throws IOException {
        while (true) {
            TdsMessage m = next();
            if (m == null) {
                return;
            }
            long stall = faults.takeStallMillis();
            if (stall > 0) {
                sleep(stall);
            }
            w.type(TdsPackets.REPLY);
            boolean cancelled = switch (m.type()) {
                case TdsPackets.SQL_BATCH -> batch(Requests.batchText(m.payload()));
                case TdsPackets.RPC -> rpcs(Requests.rpcs(m.payload()));
                case TdsPackets.ATTENTION -> true; // it came after the response had ended: only the ack is owed
                case TdsPackets.TRANSACTION_MANAGER -> {
                    Tokens.done(w, Tokens.DONE, 0, 0, 0);
                    yield false;
                }
                default -> throw new TdsProtocolException("unexpected message type " + m.type());
            };
            if (m.type() != TdsPackets.ATTENTION) {
                w.endMessage();
            }
            if (cancelled) {
                // the attention ack is a message of its own after the interrupted response, as SQL Server sends it:
                // mssql-jdbc reads one more packet at the response's EOM while its attention is unacknowledged
                Tokens.done(w, Tokens.DONE, Tokens.DONE_ATTN, 0, 0);
                w.endMessage();
            }
        }
    }

    private TdsMessage next() throws IOException {
        if (pushedBack != null) {
            TdsMessage m = pushedBack;
            pushedBack = null;
            return m;
        }
        return TdsPackets.read(in);
    }

    /** True when the client has sent an attention; any other message waits for the next request. */
    private boolean attention() {
        try {
            if (pushedBack == null && in.available() > 0) {
                out.flush();
                pushedBack = TdsPackets.read(in);
            }
            return pushedBack != null && pushedBack.type() == TdsPackets.ATTENTION && consume();
        } catch (IOException e) {
            return true; // the client is gone: stop producing
        }
    }

    private boolean consume() {
        pushedBack = null;
        return true;
    }

    /** Returns whether an attention interrupted it. */
    private boolean batch(String sql) throws IOException {
        ResponseStream r = new ResponseStream(w, false, this::attention, faults);
        try {
            session.batch(sql, r);
        } catch (SqlServerError e) {
            r.error(e);
        } catch (RuntimeException e) {
            r.error(internal(e));
        }
        if (r.wasCancelled()) {
            Tokens.done(w, Tokens.DONE, Tokens.DONE_ERROR, 0, 0);
            return true;
        }
        if (r.hasPending()) {
            r.endStatements(false);
        } else {
            Tokens.done(w, Tokens.DONE, 0, 0, 0);
        }
        return false;
    }

    /** Returns whether an attention interrupted them. */
    private boolean rpcs(List<Requests.Rpc> calls) throws IOException {
        for (int i = 0; i < calls.size(); i++) {
            boolean more = i + 1 < calls.size();
            ResponseStream r = new ResponseStream(w, true, this::attention, faults);
            Param handleOut = null;
            int handle = 0;
            boolean failed = false;
            Requests.Rpc c = calls.get(i);
            try {
                switch (c.procId()) {
                    case Requests.SP_EXECUTESQL -> session.execute(text(c.param(0)),
                        c.params().size() > 1 ? text(c.param(1)) : "", tail(c.params(), 2), r);
                    case Requests.SP_PREPEXEC -> {
                        handleOut = c.param(0);
                        handle = session.prepare(text(c.param(2)), text(c.param(1)));
                        session.executePrepared(handle, tail(c.params(), 3), r);
                    }
                    case Requests.SP_PREPARE -> {
                        handleOut = c.param(0);
                        handle = session.prepare(text(c.param(2)), text(c.param(1)));
                    }
                    case Requests.SP_EXECUTE -> session.executePrepared(((Number) c.param(0).value()).intValue(),
                        tail(c.params(), 1), r);
                    case Requests.SP_UNPREPARE -> session.unprepare(((Number) c.param(0).value()).intValue());
                    case 0 -> session.call(c.name(), c.params(), r);
                    default -> throw new SqlServerError(2812, 62, 16, "Could not find stored procedure id "
                        + c.procId() + ".");
                }
            } catch (SqlServerError e) {
                r.error(e);
                failed = true;
            } catch (RuntimeException e) {
                r.error(internal(e));
                failed = true;
            }
            if (r.wasCancelled()) {
                Tokens.done(w, Tokens.DONEPROC, Tokens.DONE_ERROR, 0, 0);
                return true;
            }
            r.endStatements(true);
            Tokens.returnStatus(w, failed ? -6 : 0);
            if (handleOut != null && !failed) {
                returnHandle(handleOut.name(), handle);
            }
            Tokens.done(w, Tokens.DONEPROC, (more ? Tokens.DONE_MORE : 0) | (failed ? Tokens.DONE_ERROR : 0), 0, 0);
        }
        return false;
    }

    private void returnHandle(String name, int handle) throws IOException {
        w.u8(Tokens.RETURNVALUE);
        w.u16(0);
        w.bVarchar(name == null ? "" : name);
        w.u8(0x01);
        w.i32(0);
        w.u16(0x01);
        w.u8(TdsTypes.INTN);
        w.u8(4);
        w.u8(4);
        w.i32(handle);
    }

    private static String text(Param p) {
        return p.value() == null ? "" : p.value().toString();
    }

    private static List<Param> tail(List<Param> params, int from) {
        return params.size() <= from ? List.of() : params.subList(from, params.size());
    }

    /** An engine failure that is not a SQL Server error: reported as one (severity 16), and on the twin's stderr. */
    private static SqlServerError internal(RuntimeException e) {
        System.err.println("mssql-twin: internal error: " + e);
        return new SqlServerError(50000, 1, 16, "mssql-twin internal error: " + e.getClass().getSimpleName());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis); // the stall a wire fault asks for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
