package io.dpone.testing.mssql.tds;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/** Accepts TDS clients on a loopback port, one thread per connection (as many as clients open). */
public final class TdsServer implements AutoCloseable {
    private final ServerSocket listener;
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mssql-twin-connection");
        t.setDaemon(true);
        return t;
    });
    private final Thread acceptor;

    /**
     * @param port 0 for a free port
     * @param tls  the certificate for clients that ask for encryption; null to answer that encryption is not
     *             supported
     * @throws java.net.BindException when the port is in use
     */
    public TdsServer(int port, SessionOpener sessions, LoginPolicy login, SSLContext tls, WireFaults faults)
        throws IOException {
        listener = new ServerSocket();
        listener.setReuseAddress(false);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket s = listener.accept();
                    connections.execute(new TdsConnection(s, sessions, login, tls, faults));
                } catch (IOException e) {
                    // closed: the loop ends
                }
            }
        }, "mssql-twin-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        connections.shutdownNow();
    }
}
