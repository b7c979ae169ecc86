package io.healthmesh.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.dns.DefaultDnsResponse;
import io.netty.handler.codec.dns.DnsQuery;
import io.netty.handler.codec.dns.TcpDnsQueryDecoder;
import io.netty.handler.codec.dns.TcpDnsResponseEncoder;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny authoritative DNS server on loopback UDP for tests, on Netty's DNS codec: answers A queries for the names
 * it was given (with the TTL given), NOERROR without answers for other types of those names, SERVFAIL for names
 * starting with {@code servfail}, NXDOMAIN otherwise, and never answers names under a {@link #silentFor silent
 * zone} (a dead authoritative server, as a recursive resolver sees it). Counts the queries it received per name.
 * A name starting with {@code truncated} is answered over UDP with the TC bit and no answer, and in full over TCP
 * on the same port ({@link #queriesOverTcp}): what a server does when the answer does not fit a datagram.
 */
public final class TinyDnsServer implements AutoCloseable {

    /** How many ephemeral UDP ports to try before giving up on finding one whose TCP twin is free too. */
    private static final int PORT_ATTEMPTS = 20;

    private final Map<String, InetAddress> names = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> queries = new ConcurrentHashMap<>();
    private final EventLoopGroup group;
    private final Channel channel;
    private final Channel tcpChannel;
    private final AtomicInteger tcpQueries = new AtomicInteger();
    private final int ttlSeconds;
    private volatile long answerDelayMs;
    private volatile String silentZone;

    public TinyDnsServer(int ttlSeconds) throws InterruptedException {
        this.ttlSeconds = ttlSeconds;
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel[] bound = null;
        try {
            bound = bindUdpAndTcpOnOnePort();
        } finally {
            if (bound == null) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
        }
        this.channel = bound[0];
        this.tcpChannel = bound[1];
    }

    /**
     * Binds UDP on an ephemeral loopback port, then TCP on the same number; when another test holds that TCP port,
     * lets the UDP port go and tries another one.
     */
    private Channel[] bindUdpAndTcpOnOnePort() throws InterruptedException {
        ChannelFuture lastTcp = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            Channel udp = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                    .handler(new ChannelInitializer<DatagramChannel>() {
                        @Override
                        protected void initChannel(DatagramChannel ch) {
                            ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                    new Answerer());
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            int port = ((InetSocketAddress) udp.localAddress()).getPort();
            lastTcp = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new TcpDnsQueryDecoder(), new TcpDnsResponseEncoder(),
                                    new TcpAnswerer());
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).await();
            if (lastTcp.isSuccess()) {
                return new Channel[] {udp, lastTcp.channel()};
            }
            udp.close().await();
        }
        throw new IllegalStateException("no loopback port free for both UDP and TCP after " + PORT_ATTEMPTS
                + " tries", lastTcp.cause());
    }

    public TinyDnsServer add(String name, String ipv4) throws Exception {
        names.put(canonical(name), InetAddress.getByName(ipv4));
        return this;
    }

    /** Never answers names ending with {@code zone} (e.g. {@code .dead.test}). */
    public void silentFor(String zone) {
        silentZone = canonical(zone);
    }

    /** Delays every answer (to let concurrent lookups pile up). */
    public void delayAnswers(long ms) {
        answerDelayMs = ms;
    }

    public String address() {
        return "127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Queries that came over TCP. */
    public int queriesOverTcp() {
        return tcpQueries.get();
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    public int queriesFor(String name) {
        AtomicInteger count = queries.get(canonical(name));
        return count == null ? 0 : count.get();
    }

    private static String canonical(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower : lower + ".";
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        tcpChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Answers over TCP in full, the truncated names included. */
    private final class TcpAnswerer extends SimpleChannelInboundHandler<DnsQuery> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DnsQuery query) {
            tcpQueries.incrementAndGet();
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            String name = canonical(question.name());
            DefaultDnsResponse response = new DefaultDnsResponse(query.id());
            response.setAuthoritativeAnswer(true);
            response.addRecord(DnsSection.QUESTION, question);
            InetAddress address = names.get(name);
            if (address == null) {
                response.setCode(DnsResponseCode.NXDOMAIN);
            } else if (question.type() == DnsRecordType.A) {
                response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A,
                        ttlSeconds, Unpooled.wrappedBuffer(address.getAddress())));
            }
            ctx.writeAndFlush(response);
        }
    }

    private final class Answerer extends SimpleChannelInboundHandler<DatagramDnsQuery> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            String name = canonical(question.name());
            queries.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            String silent = silentZone;
            if (silent != null && name.endsWith(silent)) {
                return; // a dead server: the query is dropped
            }
            DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setAuthoritativeAnswer(true);
            response.setRecursionAvailable(true);
            response.addRecord(DnsSection.QUESTION, question);
            InetAddress address = names.get(name);
            if (name.startsWith("truncated")) {
                response.setTruncated(true);
            } else if (name.startsWith("servfail")) {
                response.setCode(DnsResponseCode.SERVFAIL);
            } else if (address == null) {
                response.setCode(DnsResponseCode.NXDOMAIN);
            } else if (question.type() == DnsRecordType.A) {
                response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A,
                        ttlSeconds, Unpooled.wrappedBuffer(address.getAddress())));
            }
            long delay = answerDelayMs;
            if (delay > 0) {
                ctx.executor().schedule(() -> ctx.writeAndFlush(response), delay, TimeUnit.MILLISECONDS);
            } else {
                ctx.writeAndFlush(response);
            }
        }
    }
}
