package io.healthmesh.ops;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The JDK's {@link HttpExchange} over a request that was read in full before any handler ran, with the answer
 * buffered and handed to {@code onClose} when the handler closes the exchange. An answer whose length the handler
 * leaves open ({@code sendResponseHeaders(status, 0)}, chunked in the JDK's contract, e.g. server-sent events) is
 * streamed instead: headers at once, then a chunk at every {@code flush()}, the end at {@code close()}. It lets {@code HttpHandler}s
 * (the query API, the status page) run unchanged on {@link OpsServer}'s Netty listener, where slow clients cost
 * no thread.
 */
final class BufferedExchange extends HttpExchange {

    /** The complete answer of a handler. */
    record Answer(int status, Headers headers, byte[] body, boolean head) {
    }

    /** Where a streamed answer goes; every call may block (back-pressure) and throws once the client is gone. */
    interface Stream {
        void start(int status, Headers headers) throws IOException;

        void chunk(byte[] data) throws IOException;

        void end();
    }

    private final String method;
    private final URI uri;
    private final String protocol;
    private final Headers requestHeaders;
    private final Headers responseHeaders = new Headers();
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final HttpContext context;
    private final Map<String, Object> attributes = new HashMap<>();
    private final Consumer<Answer> onClose;
    private final Stream stream;
    private boolean streaming;
    private InputStream body;
    private final ByteArrayOutputStream response = new ByteArrayOutputStream();
    private OutputStream responseStream = response;
    private int status = -1;
    private boolean closed;

    BufferedExchange(String method, URI uri, String protocol, Headers requestHeaders, byte[] requestBody,
                     InetSocketAddress remote, InetSocketAddress local, HttpContext context, Consumer<Answer> onClose,
                     Stream stream) {
        this.method = method;
        this.uri = uri;
        this.protocol = protocol;
        this.requestHeaders = requestHeaders;
        this.body = new ByteArrayInputStream(requestBody);
        this.remote = remote;
        this.local = local;
        this.context = context;
        this.onClose = onClose;
        this.stream = stream;
    }

    @Override
    public Headers getRequestHeaders() {
        return requestHeaders;
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return uri;
    }

    @Override
    public String getRequestMethod() {
        return method;
    }

    @Override
    public HttpContext getHttpContext() {
        return context;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (streaming) {
            try {
                flushChunk();
            } catch (IOException e) {
                // the client is gone: nothing more to send
            }
            stream.end();
            return;
        }
        onClose.accept(new Answer(status < 0 ? 500 : status, responseHeaders, response.toByteArray(), "HEAD".equals(method)));
    }

    /** True once the handler has sent the status (or closed): the dispatcher must not answer for it. */
    synchronized boolean answered() {
        return status >= 0 || closed;
    }

    private synchronized void flushChunk() throws IOException {
        if (streaming && response.size() > 0) {
            byte[] data = response.toByteArray();
            response.reset();
            stream.chunk(data);
        }
    }

    @Override
    public InputStream getRequestBody() {
        return body;
    }

    @Override
    public OutputStream getResponseBody() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                responseStream.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                responseStream.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                flushChunk();
            }

            @Override
            public void close() {
                BufferedExchange.this.close();
            }
        };
    }

    @Override
    public synchronized void sendResponseHeaders(int rCode, long responseLength) throws IOException {
        if (status >= 0) {
            throw new IOException("headers already sent");
        }
        status = rCode;
        if (responseLength == 0 && stream != null && !"HEAD".equals(method)) {
            streaming = true;
            stream.start(rCode, responseHeaders);
        }
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return remote;
    }

    @Override
    public int getResponseCode() {
        return status;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return local;
    }

    @Override
    public String getProtocol() {
        return protocol;
    }

    @Override
    public Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        attributes.put(name, value);
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        if (i != null) {
            body = i;
        }
        if (o != null) {
            responseStream = o;
        }
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }
}
