package io.healthmesh.probe.http;

import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.transport.ChannelFreeConnection;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * One plain-HTTP hop on the epoll transport, without a Netty channel ({@link ChannelFreeConnection}): an HTTP/1
 * client of its own beside the channel's ({@link ChannelHttpExchange}). The request is written with one
 * {@code send} once the connect ends, the response is read with {@code recv} and decoded by Netty's own
 * HTTP response decoder, with the same bounds as the channel's codec (status line, headers, chunk size), and judged
 * by the same {@link HttpResponseJudge}: the same bytes give the same verdict on both paths. The request's bytes are
 * those Netty's request encoder writes for a channel. The socket is watched once, edge-triggered, for both the
 * connect's end and the response, so a check makes one {@code epoll_ctl} where a channel makes four.
 *
 * <p>Reading stops at the verdict. A socket that stays readable is read at most {@link #READS_PER_TURN} times per
 * event, {@link ProbeBootstraps#READ_BUFFER_BYTES} at a time, then again on a later turn of the loop, so that one
 * endless response cannot hold the loop's other probes back; what a read brings is decoded before the next read, so
 * the decoder's bounds stop an over-long response after at most one buffer more. HTTPS keeps its channel (TLS).
 */
final class ChannelFreeHttpExchange extends ChannelFreeConnection {

    /** Reads of one event before the rest waits for a later turn of the loop. */
    static final int READS_PER_TURN = 4;

    private static final RequestEncoder ENCODER = new RequestEncoder();

    private final HttpResponseJudge judge;
    private final ResponseDecoder decoder;
    private final List<Object> decoded = new ArrayList<>(4);
    private final Runnable releaseHop = () -> probe.release(closer);
    private ByteBuf unsent;
    private ByteBuf received;

    private ChannelFreeHttpExchange(ProbeContext probe, HttpResponseJudge judge, ByteBuf request, int maxHeaderBytes) {
        super(probe);
        this.judge = judge;
        this.unsent = request;
        this.decoder = new ResponseDecoder(maxHeaderBytes);
    }

    /**
     * The plain-HTTP exchange of an engine on epoll: each hop from {@code local} ({@code null}: the system's source
     * address), its response judged for {@code prober} with {@code config}'s bounds.
     */
    static HttpExchange from(InetSocketAddress local, ProbeEngineConfig config, HttpProber prober) {
        return (probe, hop, request, expected, redirectsFollowed) -> start(probe,
                new InetSocketAddress(hop.address(), hop.port()), local, request, new HttpResponseJudge(probe, hop,
                        expected, config.maxBodyBytes(), redirectsFollowed, prober), config.maxHeaderBytes());
    }

    /**
     * Starts the hop {@code remote} from {@code local} ({@code null}: the system's source address) with
     * {@code request}, its response going to {@code judge}; call on the probe's loop, which must be an epoll loop.
     */
    static void start(ProbeContext probe, InetSocketAddress remote, InetSocketAddress local, HttpRequest request,
                      HttpResponseJudge judge, int maxHeaderBytes) {
        ByteBuf bytes;
        try {
            bytes = requestBytes(ByteBufAllocator.DEFAULT, request);
        } catch (Exception e) {
            probe.internalError(e);
            return;
        }
        new ChannelFreeHttpExchange(probe, judge, bytes, maxHeaderBytes).open(remote, local, true);
    }

    /** The request's bytes as this check sends them: Netty's request encoder's (ChannelFreeHttpExchangeTest compares). */
    static ByteBuf requestBytes(ByteBufAllocator alloc, HttpRequest request) throws Exception {
        return ENCODER.encode(alloc, request);
    }

    @Override
    protected void onConnected() {
        probe.connected();
        probe.phase("awaiting response");
        send();
    }

    @Override
    protected void onReady(boolean writable, boolean readable) {
        if (unsent != null && writable) {
            send();
        }
        if (!isClosed() && readable) {
            read();
        }
    }

    /** Writes what is left of the request; a full socket buffer waits for the next writable edge. */
    private void send() {
        try {
            int written = send(unsent);
            unsent.skipBytes(written);
        } catch (IOException | RuntimeException e) {
            probe.fail(e); // the target reset or closed the connection: as a channel's failed write
            return;
        }
        if (!unsent.isReadable()) {
            unsent.release();
            unsent = null;
        }
    }

    /** Reads and decodes until the socket is drained, the verdict, or this turn's reads are used up. */
    private void read() {
        for (int reads = 0; reads < READS_PER_TURN; reads++) {
            if (received == null) {
                received = ByteBufAllocator.DEFAULT.directBuffer(ProbeBootstraps.READ_BUFFER_BYTES);
            }
            received.ensureWritable(ProbeBootstraps.READ_BUFFER_BYTES);
            int count;
            try {
                count = recv(received, ProbeBootstraps.READ_BUFFER_BYTES);
            } catch (IOException | RuntimeException e) {
                probe.fail(e); // a reset: the kernel's answer about the target
                return;
            }
            if (count == 0) {
                return; // drained: the next edge says when more came
            }
            if (count < 0) {
                decode(true); // the target closed the connection: the decoder's last word, then the judge's
                if (!isClosed()) {
                    judge.onClosed();
                }
                return;
            }
            received.writerIndex(received.writerIndex() + count);
            probe.bytesRead(count);
            decode(false);
            if (isClosed() || !judge.readsOn()) {
                return;
            }
        }
        try {
            probe.loop().execute(() -> guarded(() -> { // more may be waiting, and no new edge comes for it
                if (!isClosed() && judge.readsOn()) {
                    read();
                }
            }));
        } catch (RejectedExecutionException stopping) {
            probe.internalError(stopping); // the engine is closing: not the target's doing
        }
    }

    /**
     * Hands what the decoder makes of the bytes read so far to the judge, until it has a verdict. A decoder's failure
     * is the response's (malformed); what the judge throws is ours and goes on to {@link #guarded}.
     */
    private void decode(boolean ended) {
        while (received.isReadable()) {
            int before = received.readableBytes();
            if (!decodeSome(false)) {
                return;
            }
            deliver();
            if (isClosed() || !judge.readsOn() || received.readableBytes() == before) {
                break;
            }
        }
        if (ended && !isClosed() && judge.readsOn() && decodeSome(true)) {
            deliver();
        }
        if (!isClosed()) {
            received.discardSomeReadBytes();
        }
    }

    /** One step of the decoder ({@code last}: at the end of input); false when it failed and the probe with it. */
    private boolean decodeSome(boolean last) {
        try {
            if (last) {
                decoder.decodeEnd(received, decoded);
            } else {
                decoder.decodeSome(received, decoded);
            }
            return true;
        } catch (Exception e) {
            deliver(); // what it decoded before failing, a verdict perhaps
            probe.fail(e instanceof DecoderException ? e : new DecoderException(e)); // as a channel's codec reports it
            return false;
        }
    }

    /**
     * Hands the decoded objects to the judge, each once: an object leaves the list before the judge sees it, and
     * those left when the judge throws are released undelivered.
     */
    private void deliver() {
        try {
            for (int i = 0; i < decoded.size(); i++) {
                Object msg = decoded.set(i, null);
                try {
                    if (msg instanceof HttpObject object) {
                        judge.onObject(object, releaseHop);
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
        } finally {
            for (Object left : decoded) {
                ReferenceCountUtil.release(left); // null: already delivered
            }
            decoded.clear();
        }
    }

    @Override
    public void close() {
        if (isClosed()) {
            return;
        }
        super.close();
        if (unsent != null) {
            unsent.release();
            unsent = null;
        }
        if (received != null) {
            received.release();
            received = null;
        }
        decoder.release();
    }

    /**
     * Netty's request encoder, for the request line and headers it writes on a channel (the request has no body).
     * The two methods called keep no state, so one encoder serves every event loop.
     */
    private static final class RequestEncoder extends HttpRequestEncoder {
        private static final int CRLF = ('\r' << 8) | '\n';

        ByteBuf encode(ByteBufAllocator alloc, HttpRequest request) throws Exception {
            ByteBuf buf = alloc.directBuffer(256);
            try {
                encodeInitialLine(buf, request);
                encodeHeaders(request.headers(), buf);
                ByteBufUtil.writeShortBE(buf, CRLF);
                return buf;
            } catch (Exception | Error e) {
                buf.release();
                throw e;
            }
        }
    }

    /**
     * Netty's HTTP response decoder with the bounds the channel's codec has ({@link HttpProbeInitializer}), driven
     * without a pipeline: it never uses the handler context in decoding.
     */
    private static final class ResponseDecoder extends HttpResponseDecoder {
        ResponseDecoder(int maxHeaderBytes) {
            super(new HttpDecoderConfig()
                    .setMaxInitialLineLength(HttpProbeInitializer.MAX_STATUS_LINE)
                    .setMaxHeaderSize(maxHeaderBytes)
                    .setMaxChunkSize(HttpProbeInitializer.MAX_CHUNK));
        }

        void decodeSome(ByteBuf in, List<Object> out) throws Exception {
            decode(null, in, out);
        }

        /** The end of input: what the decoder makes of a message cut short (headers never ended, say). */
        void decodeEnd(ByteBuf in, List<Object> out) throws Exception {
            decodeLast(null, in, out);
        }

        /** Frees the decoder's scratch buffer. */
        void release() {
            try {
                handlerRemoved0(null);
            } catch (Exception ignored) {
                // only a buffer's release: nothing to do about it
            }
        }
    }
}
