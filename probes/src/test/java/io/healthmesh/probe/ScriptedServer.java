package io.healthmesh.probe;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * A loopback TCP (optionally TLS) server for tests whose every connection runs a script: the script gets the
 * socket and, when the server reads requests, the request head (everything up to the blank line). It lets
 * tests send well-formed and hostile responses byte by byte. Bytes written are counted.
 */
public final class ScriptedServer implements AutoCloseable {

    /** What the server does with one connection. */
    @FunctionalInterface
    public interface Script {
        void serve(Socket socket, String requestHead, ScriptedServer server) throws IOException, InterruptedException;
    }

    private final ServerSocket listener;
    private final Script script;
    private final boolean readsRequest;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-server");
        t.setDaemon(true);
        return t;
    });
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();

    private ScriptedServer(ServerSocket listener, boolean readsRequest, Script script) {
        this.listener = listener;
        this.readsRequest = readsRequest;
        this.script = script;
        threads.execute(this::acceptLoop);
    }

    /** A server that reads an HTTP-style request head before running the script. */
    public static ScriptedServer http(Script script) throws IOException {
        return new ScriptedServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), true, script);
    }

    /** Like {@link #http} on another loopback address (such as {@code ::1}). */
    public static ScriptedServer httpOn(InetAddress address, Script script) throws IOException {
        return new ScriptedServer(new ServerSocket(0, 50, address), true, script);
    }

    /** A server that runs the script as soon as a connection is accepted. */
    public static ScriptedServer raw(Script script) throws IOException {
        return new ScriptedServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), false, script);
    }

    /** A TLS server on another loopback address (such as {@code 127.0.0.2}). */
    public static ScriptedServer httpsOn(SSLContext tls, InetAddress address, Script script) throws IOException {
        return new ScriptedServer(tls.getServerSocketFactory().createServerSocket(0, 50, address), true, script);
    }

    public static ScriptedServer https(SSLContext tls, Script script) throws IOException {
        return https(tls, null, script);
    }

    /**
     * A TLS server; {@code sni}, when not null, sees the SNI names that clients send. It is set before the first
     * accept, because an SSL server socket copies its parameters when {@code accept()} starts waiting.
     */
    public static ScriptedServer https(SSLContext tls, javax.net.ssl.SNIMatcher sni, Script script) throws IOException {
        SSLServerSocket listener = (SSLServerSocket) tls.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        if (sni != null) {
            javax.net.ssl.SSLParameters parameters = listener.getSSLParameters();
            parameters.setSNIMatchers(List.of(sni));
            listener.setSSLParameters(parameters);
        }
        return new ScriptedServer(listener, true, script);
    }

    public int port() {
        return listener.getLocalPort();
    }

    public List<String> requests() {
        return requests;
    }

    public long connections() {
        return connections.get();
    }

    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Writes and counts; for scripts. */
    public void write(Socket socket, byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        bytesWritten.addAndGet(bytes.length);
    }

    public void write(Socket socket, String text) throws IOException {
        write(socket, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Waits up to {@code millis} or until the server closes; true when it closed. For pacing scripts. */
    public boolean awaitClose(long millis) throws InterruptedException {
        return closed.await(millis, TimeUnit.MILLISECONDS);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                connections.incrementAndGet();
                sockets.add(socket);
                threads.execute(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            String head = readsRequest ? readHead(socket.getInputStream()) : "";
            if (readsRequest) {
                requests.add(head);
            }
            script.serve(socket, head, this);
        } catch (IOException | InterruptedException e) {
            // the probe closed or reset the connection: expected in most scripts
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        while (head.size() < 65_536) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        threads.shutdownNow();
    }
}
