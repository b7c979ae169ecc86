package io.healthmesh.probe.egress;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.HttpSpec;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TcpSpec;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.probe.NettyProbeEngine;
import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.probe.ScriptedServer;
import io.healthmesh.probe.SelfSignedTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The egress table (docs/SECURITY.md): every spelling of a denied address x every protocol x first hop and (HTTP,
 * HTTPS) redirect hop ends {@code BLOCKED_BY_POLICY} with nothing sent. A TCP listener and a UDP socket bound to the
 * wildcard address count what arrives: loopback and unspecified spellings would reach them if they were let
 * through (the positive control at the end shows that they do once loopback is allowed). The redirect hop starts
 * at a redirector on 127.0.0.2, the only address the engine's allow list opens, which sends the probe on to the
 * spelling under test. The engine is the real one, with the JDK's resolver; the default deny list applies.
 */
class EgressTableTest {

    /** Each spelling names a denied address; the comment says what it is. None is 127.0.0.2. */
    static final List<String> SPELLINGS = List.of(
            // IPv4 loopback, in every spelling the C library's inet_aton accepts
            "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7f.0.0.1", "0x7F.0x00.0x00.0x01",
            "0177.0.0.1", "0177.0.0.01", "017700000001", "127.000.000.001", "127.0.0.1.", "127.255.255.254",
            "127.10.20.30", "0x7f.1", "localhost",
            // IPv6 loopback and IPv4 loopback inside IPv6 (mapped, compatible, SIIT, NAT64, 6to4, Teredo, ISATAP)
            "::1", "[::1]", "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "::0:1",
            "::ffff:127.0.0.1", "::ffff:7f00:1", "0:0:0:0:0:ffff:127.0.0.1", "[::ffff:127.0.0.1]", "::127.0.0.1",
            "::7f00:1", "::ffff:0:127.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b:1::7f00:1",
            "2002:7f00:1::1", "2002:7f00:0001:0000:0000:0000:0000:0001", "2001:0:7f00:1::",
            "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:db8::5efe:7f00:1",
            // "this network" and the unspecified address (connecting to them reaches this host on Linux)
            "0.0.0.0", "0", "0x0", "0.0.0.0.", "0.1.2.3", "::", "[::]", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0",
            // cloud metadata: link-local (AWS, GCP, Azure IMDS, OCI), AWS IPv6, Alibaba, Azure wire server
            "169.254.169.254", "169.254.170.2", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518",
            "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::", "fd00:ec2::254",
            "fd00:ec2:0:0:0:0:0:254", "100.100.100.200", "::ffff:100.100.100.200", "0x646464c8",
            "168.63.129.16", "::ffff:168.63.129.16", "0xa83f8110",
            // IPv6 link-local, with and without a zone id
            "fe80::1", "FE80::ABCD", "fe80::1%lo",
            // multicast and broadcast
            "224.0.0.1", "239.255.255.250", "ff02::1", "ff05::1:3", "::ffff:224.0.0.251", "255.255.255.255",
            "0xffffffff", "4294967295", "::ffff:255.255.255.255");

    private static final int TIMEOUT_MS = 3000;
    private static final Pattern INDEX = Pattern.compile("GET /r/(\\d+) ");

    private static NettyProbeEngine engine;
    private static ServerSocket tcpListener;
    private static DatagramSocket udpListener;
    private static final AtomicLong connections = new AtomicLong();
    private static final AtomicLong datagrams = new AtomicLong();
    private static ScriptedServer httpRedirector;
    private static ScriptedServer httpsRedirector;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        tcpListener = new ServerSocket();
        tcpListener.bind(new InetSocketAddress((InetAddress) null, 0)); // the wildcard: every loopback spelling lands
        daemon("egress-table-tcp", () -> {
            while (!tcpListener.isClosed()) {
                try {
                    tcpListener.accept().close();
                    connections.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        });
        udpListener = new DatagramSocket(null);
        udpListener.bind(new InetSocketAddress((InetAddress) null, 0));
        daemon("egress-table-udp", () -> {
            byte[] buffer = new byte[2048];
            while (!udpListener.isClosed()) {
                try {
                    udpListener.receive(new DatagramPacket(buffer, buffer.length));
                    datagrams.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        });
        InetAddress firstHop = InetAddress.getByName("127.0.0.2");
        httpRedirector = ScriptedServer.httpOn(firstHop, (socket, head, server) -> redirect(socket, head, server, "http"));
        httpsRedirector = ScriptedServer.httpsOn(SelfSignedTls.serverContext(dir), firstHop,
                (socket, head, server) -> redirect(socket, head, server, "https"));
        engine = NettyProbeEngine.create(ProbeEngineConfig.defaults().withAllowList(List.of("127.0.0.2/32"))
                .withEventLoopThreads(1), null);
    }

    @AfterAll
    static void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {tcpListener, udpListener, httpRedirector, httpsRedirector}) {
            if (c != null) {
                c.close();
            }
        }
    }

    /** A spelling as the host of a URL: IPv6 bracketed, a zone id's {@code %} escaped. */
    static String urlHost(String spelling) {
        if (spelling.indexOf(':') < 0 || spelling.startsWith("[")) {
            return spelling;
        }
        return "[" + spelling.replace("%", "%25") + "]";
    }

    private static void redirect(Socket socket, String head, ScriptedServer server, String scheme) throws IOException {
        Matcher m = INDEX.matcher(head);
        if (!m.find()) {
            server.write(socket, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        }
        String spelling = SPELLINGS.get(Integer.parseInt(m.group(1)));
        server.write(socket, "HTTP/1.1 302 Found\r\nLocation: " + scheme + "://" + urlHost(spelling) + ":"
                + tcpListener.getLocalPort() + "/landed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    }

    enum Hop { FIRST, REDIRECT }

    static Stream<Arguments> table() {
        List<Arguments> rows = new ArrayList<>();
        for (int i = 0; i < SPELLINGS.size(); i++) {
            for (Protocol protocol : Protocol.values()) {
                rows.add(Arguments.of(i, SPELLINGS.get(i), protocol, Hop.FIRST));
                if (protocol == Protocol.HTTP || protocol == Protocol.HTTPS) {
                    rows.add(Arguments.of(i, SPELLINGS.get(i), protocol, Hop.REDIRECT));
                }
            }
        }
        return rows.stream();
    }

    @Test
    void theTableIsAsLargeAsTheIssueAsks() {
        assertThat(SPELLINGS).hasSizeGreaterThanOrEqualTo(60).doesNotHaveDuplicates();
        assertThat(Protocol.values()).contains(Protocol.TCP, Protocol.UDP, Protocol.HTTP, Protocol.HTTPS, Protocol.ICMP);
    }

    @ParameterizedTest(name = "{1} {2} {3}")
    @MethodSource("table")
    void deniedSpellingIsBlockedWithNothingSent(int index, String spelling, Protocol protocol, Hop hop) throws Exception {
        long connectionsBefore = connections.get();
        long datagramsBefore = datagrams.get();
        long redirectsBefore = httpRedirector.connections() + httpsRedirector.connections();

        ProbeReport report = engine.probe(target(index, spelling, protocol, hop))
                .get(TIMEOUT_MS + 10_000L, TimeUnit.MILLISECONDS);

        assertThat(report.outcome()).as(report.toString()).isEqualTo(Outcome.BLOCKED_BY_POLICY);
        assertThat(report.detail()).contains("denied range");
        if (hop == Hop.REDIRECT) {
            // the first hop was allowed and answered; the next one never started
            assertThat(httpRedirector.connections() + httpsRedirector.connections()).isEqualTo(redirectsBefore + 1);
            assertThat(report.httpStatus()).isEqualTo(302); // the first hop's answer
        } else {
            assertThat(report.connectMicros()).isNull();
            assertThat(report.bytesRead()).isZero();
        }
        assertThat(connections.get()).as("connections to the listener").isEqualTo(connectionsBefore);
        assertThat(datagrams.get()).as("datagrams to the listener").isEqualTo(datagramsBefore);
    }

    /** Positive control: with loopback allowed, the same listeners do see what a probe sends. */
    @Test
    void theListenersCountWhatArrivesOnceLoopbackIsAllowed() throws Exception {
        try (NettyProbeEngine open = NettyProbeEngine.create(ProbeEngineConfig.defaults()
                .withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1), null)) {
            long tcpBefore = connections.get();
            long udpBefore = datagrams.get();
            assertThat(open.probe(target(0, "0x7f.1", Protocol.TCP, Hop.FIRST)).get(15, TimeUnit.SECONDS).outcome())
                    .isEqualTo(Outcome.SUCCESS);
            open.probe(target(0, "::ffff:127.0.0.1", Protocol.UDP, Hop.FIRST)).get(15, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((connections.get() == tcpBefore || datagrams.get() == udpBefore) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(connections.get()).isGreaterThan(tcpBefore);
            assertThat(datagrams.get()).isGreaterThan(udpBefore);
        }
    }

    private static TargetSpec target(int index, String spelling, Protocol protocol, Hop hop) {
        boolean redirect = hop == Hop.REDIRECT;
        String address = redirect ? "127.0.0.2" : spelling;
        int port = switch (protocol) {
            case UDP -> udpListener.getLocalPort();
            case HTTP -> redirect ? httpRedirector.port() : tcpListener.getLocalPort();
            case HTTPS -> redirect ? httpsRedirector.port() : tcpListener.getLocalPort();
            default -> tcpListener.getLocalPort();
        };
        TargetSpec target = TargetSpec.of("egress-" + index + "-" + protocol, "g", address, port, protocol)
                .withTiming(Math.max(TIMEOUT_MS, 1000), TIMEOUT_MS);
        return switch (protocol) {
            case UDP -> target.withUdp(new UdpSpec(UdpMode.PAYLOAD, "PING", "PONG"));
            case HTTP, HTTPS -> target.withHttp(new HttpSpec(HttpMethod.GET, "/r/" + index, null, List.of("2xx"),
                    redirect, Map.of("Authorization", "Bearer table-secret"), null, false));
            // a payload completes the handshake (its segment carries the last ACK), so the listener accepts what
            // arrives; a connect-only check ends with SYN, SYN-ACK, reset, which no accept() ever sees
            default -> target.withTcp(new TcpSpec("PING", null));
        };
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
