package io.healthmesh.probe.dns;

import io.healthmesh.core.target.DnsRules;
import io.healthmesh.core.target.DnsSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.Prober;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.Channel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryEncoder;
import io.netty.handler.codec.dns.DatagramDnsResponseDecoder;
import io.netty.handler.codec.dns.DefaultDnsQuery;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DnsQuery;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.handler.codec.dns.TcpDnsQueryEncoder;
import io.netty.handler.codec.dns.TcpDnsResponseDecoder;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A DNS check: one query for {@code dns.name} and {@code dns.type} to the target as a name server (the address the
 * egress gate allowed, the target's port), on a connected UDP channel so that a closed port is
 * {@code PORT_UNREACHABLE}; when the answer has the TC bit set, the same query again over TCP (RFC 7766). The reply
 * (its response code and the answers of the asked type as text) is recorded on the probe's {@link
 * io.healthmesh.probe.CheckFacts} and judged by {@link DnsAnswerJudge}. A reply with another id, or to another
 * question, is ignored (the deadline then decides), as a resolver ignores a spoofed one.
 */
public final class DnsProber implements Prober {

    private final ProbeBootstraps bootstraps;

    public DnsProber(ProbeBootstraps bootstraps) {
        this.bootstraps = bootstraps;
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        DnsSpec spec = probe.target().dns();
        InetSocketAddress server = new InetSocketAddress(address, probe.target().port());
        int id = ThreadLocalRandom.current().nextInt(1 << 16);
        DnsRecordType type = DnsRecordType.valueOf(spec.type().name());
        String name = spec.name().endsWith(".") ? spec.name() : spec.name() + ".";
        ReplyHandler udpHandler = new ReplyHandler(probe, spec, address, id, name, type, false);
        ChannelHandler udpPipeline = new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new DatagramDnsQueryEncoder(), new DatagramDnsResponseDecoder(), udpHandler);
            }
        };
        ChannelFuture connect = bootstraps.udp(probe, address, udpPipeline).connect(server);
        probe.track(connect.channel());
        connect.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                probe.fail(f.cause());
                return;
            }
            probe.phase("awaiting the UDP answer");
            DatagramDnsQuery query = new DatagramDnsQuery(null, server, id);
            query.setRecursionDesired(true);
            query.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(name, type));
            f.channel().writeAndFlush(query).addListener((ChannelFuture w) -> {
                if (!w.isSuccess()) {
                    probe.fail(w.cause());
                }
            });
        });
    }

    /** The same query over TCP, after a truncated UDP answer. */
    private void overTcp(ProbeContext probe, DnsSpec spec, InetAddress address, int id, String name,
                         DnsRecordType type) {
        probe.phase("connecting over TCP (the UDP answer was truncated)");
        probe.beginHop();
        ReplyHandler tcpHandler = new ReplyHandler(probe, spec, address, id, name, type, true);
        ChannelHandler tcpPipeline = new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new TcpDnsQueryEncoder(), new TcpDnsResponseDecoder(), tcpHandler);
            }
        };
        ProbeBootstraps.connect(probe, bootstraps.tcp(probe, address, tcpPipeline,
                ProbeBootstraps.TcpOpening.PROBE_WRITES_FIRST), new InetSocketAddress(address, probe.target().port()),
                channel -> {
                    probe.phase("awaiting the TCP answer");
                    DnsQuery query = new DefaultDnsQuery(id);
                    query.setRecursionDesired(true);
                    query.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(name, type));
                    channel.writeAndFlush(query).addListener((ChannelFuture w) -> {
                        if (!w.isSuccess()) {
                            probe.fail(w.cause());
                        }
                    });
                });
    }

    /** Reads the reply to one query, on UDP or TCP. */
    private final class ReplyHandler extends SimpleChannelInboundHandler<DnsResponse> {
        private final ProbeContext probe;
        private final DnsSpec spec;
        private final InetAddress address;
        private final int id;
        private final String name;
        private final DnsRecordType type;
        private final boolean tcp;

        ReplyHandler(ProbeContext probe, DnsSpec spec, InetAddress address, int id, String name, DnsRecordType type,
                     boolean tcp) {
            this.probe = probe;
            this.spec = spec;
            this.address = address;
            this.id = id;
            this.name = name;
            this.type = type;
            this.tcp = tcp;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DnsResponse response) {
            if (probe.isDone() || response.id() != id || !asks(response)) {
                return;
            }
            probe.bytesRead(1);
            if (response.isTruncated() && !tcp) {
                probe.release(ctx.channel());
                overTcp(probe, spec, address, id, name, type);
                return;
            }
            DnsReply reply = new DnsReply(rcode(response.code().intValue()), answers(response), tcp);
            probe.facts().dns(reply.rcode(), reply.answers());
            DnsAnswerJudge.Verdict verdict = new DnsAnswerJudge(spec).judge(reply);
            probe.finish(verdict.outcome(), verdict.detail());
        }

        private static String rcode(int value) {
            return value < DnsRules.RCODES.size() ? DnsRules.RCODES.get(value) : "RCODE" + value;
        }

        private boolean asks(DnsResponse response) {
            if (response.count(DnsSection.QUESTION) != 1) {
                return false;
            }
            DnsRecord question = response.recordAt(DnsSection.QUESTION);
            return question.type().equals(type) && question.name().equalsIgnoreCase(name);
        }

        private List<String> answers(DnsResponse response) {
            List<String> out = new ArrayList<>();
            int count = response.count(DnsSection.ANSWER);
            for (int i = 0; i < count && out.size() < DnsReply.MAX_ANSWERS; i++) {
                DnsRecord record = response.recordAt(DnsSection.ANSWER, i);
                if (record.type().equals(type) && record instanceof DnsRawRecord raw) {
                    String text = DnsAnswerText.of(raw);
                    if (text != null) {
                        out.add(text);
                    }
                }
            }
            return out;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            probe.fail(cause);
        }
    }
}
