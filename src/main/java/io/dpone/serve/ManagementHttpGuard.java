package io.dpone.serve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.impl.VertxWrapper;
import io.vertx.core.net.impl.ConnectionBase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Vert.x instance serve's management HTTP server runs on, bounding every connection it accepts.
 *
 * <p>camel-platform-http-vertx 4.18 builds its server's {@code HttpServerOptions} itself (TLS only, nothing else
 * configurable) but uses the {@link Vertx} it finds in the registry, so serve binds this wrapper there and applies its
 * bounds when Camel asks it for the server:
 * <ul>
 *   <li><b>idle timeout</b> ({@code http.idle_timeout}): a connection with no bytes in either direction is closed
 *       (Vert.x's own {@code HttpServerOptions.idleTimeout});</li>
 *   <li><b>request timeout</b> ({@code http.request_timeout}): a request must arrive in full (request line, headers
 *       and body) within this bound of its first byte, or of the connection's opening for the first request. A
 *       connection that sends nothing, or drips a request a byte at a time, is answered {@code 408 Request Timeout}
 *       with {@code Connection: close} when part of a request head arrived and no response is owed, and closed
 *       otherwise;</li>
 *   <li><b>{@code Content-Length} with {@code Transfer-Encoding}</b>: refused {@code 400} and the connection closed
 *       (RFC 9112 §6.1, §6.3), before any route handler runs; Netty would otherwise drop the {@code Content-Length}
 *       and read the body chunked;</li>
 *   <li>HTTP/1.1 only: no cleartext HTTP/2 upgrade or prior knowledge, and only {@code http/1.1} offered over ALPN,
 *       so every connection goes through the HTTP/1 pipeline these bounds sit in.</li>
 * </ul>
 * The bounds live in the HTTP/1 pipeline: the request decoder is Vert.x's own with the checks above (it is swapped in
 * as the connection opens, before any byte is read), and a pass-through handler counts the responses written. A
 * connection whose pipeline does not have that shape (a Vert.x upgrade changed it) is closed and logged: the
 * management port never runs unbounded.
 */
final class ManagementHttpGuard extends VertxWrapper {
    /** The registry name serve binds this Vert.x under (Camel finds it by type). */
    static final String BEAN = "dponeManagementVertx";
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    static final Duration MIN_TIMEOUT = Duration.ofMillis(100);
    static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(ManagementHttpGuard.class);
    private static final String DECODER = "httpDecoder";
    private static final String ENCODER = "httpEncoder";

    private final long idleMillis;
    private final long requestMillis;
    private volatile boolean serving;

    ManagementHttpGuard(Duration idleTimeout, Duration requestTimeout) {
        super((VertxInternal) Vertx.vertx());
        this.idleMillis = idleTimeout.toMillis();
        this.requestMillis = requestTimeout.toMillis();
    }

    @Override
    public HttpServer createHttpServer(HttpServerOptions options) {
        HttpServerOptions bounded = new HttpServerOptions(options)
            .setIdleTimeout((int) idleMillis)
            .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
            .setHttp2ClearTextEnabled(false)
            .setAlpnVersions(List.of(io.vertx.core.http.HttpVersion.HTTP_1_1));
        HttpServer server = super.createHttpServer(bounded);
        server.connectionHandler(connection -> bound(connection, bounded));
        serving = true;
        return server;
    }

    /** Whether Camel asked this Vert.x for its server (serve refuses to start when it did not). */
    boolean serving() {
        return serving;
    }

    @Override
    public HttpServer createHttpServer() {
        return createHttpServer(new HttpServerOptions());
    }

    /**
     * Closes this Vert.x (Camel closes a registry Vert.x as its server stops; this covers a start that failed first),
     * waiting at most {@link #CLOSE_WAIT}. Idempotent.
     */
    void shutdown() {
        try {
            close().toCompletionStage().toCompletableFuture().get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("the management HTTP server's Vert.x did not close within {} ms: {}", CLOSE_WAIT.toMillis(),
                e.getClass().getSimpleName());
        }
    }

    /** Installs the request deadline and the strict decoder on a connection as it opens (its event loop). */
    private void bound(HttpConnection connection, HttpServerOptions options) {
        ChannelPipeline pipeline = connection instanceof ConnectionBase base ? base.channel().pipeline() : null;
        if (pipeline == null || !(pipeline.get(DECODER) instanceof VertxHttpRequestDecoder)
            || pipeline.get(ENCODER) == null) {
            LOG.error("management HTTP connection closed: its pipeline is not the HTTP/1 pipeline the request bounds "
                + "are installed in ({})", connection.getClass().getSimpleName());
            connection.close();
            return;
        }
        Deadline deadline = new Deadline(requestMillis);
        pipeline.replace(DECODER, DECODER, new StrictRequestDecoder(options, deadline));
        pipeline.addAfter(ENCODER, "dponeResponses", new ResponseCounter(deadline));
    }

    /**
     * One connection's request deadline. Armed when the connection opens and when the first byte of a next request
     * arrives; disarmed when a request has arrived in full. All on the connection's event loop.
     */
    static final class Deadline {
        private final long millis;
        private ChannelHandlerContext ctx;
        private ScheduledFuture<?> timer;
        private boolean inBody;      // a request head arrived, its body not yet in full
        private boolean headBytes;   // bytes of a request head arrived, the head is not complete
        private long requests;       // request heads received
        private long responses;      // responses written in full

        Deadline(long millis) {
            this.millis = millis;
        }

        void start(ChannelHandlerContext context) {
            this.ctx = context;
            arm();
        }

        void bytes() {
            if (!inBody) {
                headBytes = true;
                arm();
            }
        }

        void head() {
            requests++;
            inBody = true;
            headBytes = false;
        }

        void requestEnd() {
            inBody = false;
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }

        void responseEnd() {
            responses++;
        }

        void stop() {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }

        private void arm() {
            if (timer == null && ctx != null) {
                timer = ctx.executor().schedule(this::expire, millis, TimeUnit.MILLISECONDS);
            }
        }

        private void expire() {
            timer = null;
            if (!ctx.channel().isActive()) {
                return;
            }
            if (!inBody && headBytes && responses == requests) {
                DefaultFullHttpResponse timeout = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.REQUEST_TIMEOUT, Unpooled.EMPTY_BUFFER);
                timeout.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                    .set(HttpHeaderNames.CONTENT_LENGTH, 0);
                ctx.channel().writeAndFlush(timeout).addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.channel().close();
            }
            LOG.debug("management HTTP connection closed: no complete request within {} ms", millis);
        }
    }

    /**
     * Vert.x's request decoder with the deadline's bookkeeping, refusing a request that carries both
     * {@code Content-Length} and {@code Transfer-Encoding}: the request is marked failed, which Vert.x answers
     * {@code 400} and closes before any handler sees it.
     */
    static final class StrictRequestDecoder extends VertxHttpRequestDecoder {
        private final Deadline deadline;

        StrictRequestDecoder(HttpServerOptions options, Deadline deadline) {
            super(options);
            this.deadline = deadline;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
            super.handlerAdded(ctx);
            deadline.start(ctx);
        }

        @Override
        protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
            deadline.stop();
            super.handlerRemoved0(ctx);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
            if (buffer.isReadable()) {
                deadline.bytes();
            }
            int from = out.size();
            super.decode(ctx, buffer, out);
            for (int i = from; i < out.size(); i++) {
                Object message = out.get(i);
                if (message instanceof HttpRequest request) {
                    deadline.head();
                    if (request.headers().contains(HttpHeaderNames.CONTENT_LENGTH)
                        && request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
                        refuse(request);
                    }
                }
                if (message instanceof LastHttpContent) {
                    deadline.requestEnd();
                }
            }
        }

        /** Netty drops the {@code Content-Length} of a chunked HTTP/1.1 request here; serve refuses it instead. */
        @Override
        protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
            super.handleTransferEncodingChunkedWithContentLength(message);
            refuse(message);
        }

        private static void refuse(HttpMessage message) {
            if (message.decoderResult().isSuccess()) {
                message.setDecoderResult(DecoderResult.failure(new IllegalArgumentException(
                    "a request with both Content-Length and Transfer-Encoding is refused (RFC 9112 section 6.1)")));
            }
        }
    }

    /** Counts the responses written in full, so that a timed-out request is answered only when none is owed. */
    static final class ResponseCounter extends ChannelOutboundHandlerAdapter {
        private final Deadline deadline;

        ResponseCounter(Deadline deadline) {
            this.deadline = deadline;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            if (msg instanceof LastHttpContent) {
                deadline.responseEnd();
            }
            super.write(ctx, msg, promise);
        }
    }
}
