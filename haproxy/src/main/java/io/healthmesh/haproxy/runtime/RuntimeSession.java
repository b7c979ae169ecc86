package io.healthmesh.haproxy.runtime;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One interactive session on a HAProxy Runtime API socket: {@code prompt} mode, so that many commands share one
 * connection and each answer ends at the next {@code "\n> "} prompt. Every read and write has a deadline; an answer
 * is at most {@link #MAX_ANSWER} bytes. Not thread-safe: one driver thread owns a session.
 */
public final class RuntimeSession implements AutoCloseable {

    /** Bound on one answer (a {@code show servers state} of a few thousand servers fits many times). */
    public static final int MAX_ANSWER = 16 * 1024 * 1024;

    private final SocketChannel channel;
    private final Selector selector;
    private final long timeoutNanos;
    private final ByteBuffer in = ByteBuffer.allocate(64 * 1024);

    private RuntimeSession(SocketChannel channel, Selector selector, Duration timeout) {
        this.channel = channel;
        this.selector = selector;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Connects and turns on prompt mode.
     *
     * @throws IOException when the socket cannot be reached or does not answer as a Runtime API
     */
    public static RuntimeSession open(RuntimeAddress address, Duration timeout) throws IOException {
        SocketChannel channel = address.socket() != null
                ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
        Selector selector = null;
        try {
            channel.configureBlocking(false);
            selector = Selector.open();
            RuntimeSession session = new RuntimeSession(channel, selector, timeout);
            session.connect(address);
            session.command("prompt");
            return session;
        } catch (IOException | RuntimeException e) {
            channel.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    private void connect(RuntimeAddress address) throws IOException {
        long deadline = System.nanoTime() + timeoutNanos;
        if (!channel.connect(address.socketAddress())) {
            await(SelectionKey.OP_CONNECT, deadline);
            channel.finishConnect();
        }
    }

    /**
     * Sends one command (a single line, no {@code ;}) and returns its answer without the prompt.
     *
     * @throws IOException on a closed connection, a timeout or an oversized answer
     */
    public String command(String command) throws IOException {
        if (command.indexOf('\n') >= 0 || command.indexOf(';') >= 0) {
            throw new IllegalArgumentException("one command per line, without ';': " + command);
        }
        long deadline = System.nanoTime() + timeoutNanos;
        ByteBuffer out = ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            if (channel.write(out) == 0) {
                await(SelectionKey.OP_WRITE, deadline);
            }
        }
        return readAnswer(deadline);
    }

    private String readAnswer(long deadline) throws IOException {
        StringBuilder answer = new StringBuilder();
        while (true) {
            in.clear();
            int n = channel.read(in);
            if (n < 0) {
                throw new IOException("HAProxy closed the Runtime API connection");
            }
            if (n == 0) {
                await(SelectionKey.OP_READ, deadline);
                continue;
            }
            answer.append(new String(in.array(), 0, n, StandardCharsets.UTF_8));
            if (answer.length() > MAX_ANSWER) {
                throw new IOException("Runtime API answer longer than " + MAX_ANSWER + " bytes");
            }
            // the first prompt follows an empty answer; later ones follow the answer's last line
            int len = answer.length();
            if (len >= 2 && answer.charAt(len - 2) == '>' && answer.charAt(len - 1) == ' '
                    && (len == 2 || answer.charAt(len - 3) == '\n')) {
                return answer.substring(0, len - 2).strip();
            }
        }
    }

    private void await(int op, long deadline) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new IOException("Runtime API timed out");
        }
        SelectionKey key = channel.register(selector, op);
        try {
            if (selector.select(Math.max(1, left / 1_000_000)) == 0) {
                throw new IOException("Runtime API timed out");
            }
            selector.selectedKeys().clear();
        } finally {
            key.interestOps(0);
        }
    }

    @Override
    public void close() {
        try {
            channel.write(ByteBuffer.wrap("quit\n".getBytes(StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            // closing anyway
        }
        try {
            channel.close();
            selector.close();
        } catch (IOException e) {
            // nothing held any more
        }
    }
}
