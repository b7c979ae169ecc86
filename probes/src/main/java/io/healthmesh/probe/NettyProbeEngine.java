package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.resolve.HostResolver;
import io.healthmesh.probe.resolve.NettyHostResolver;
import io.healthmesh.probe.egress.AddressGate;
import io.healthmesh.probe.egress.DiscoveredEndpoints;
import io.healthmesh.probe.dns.DnsProber;
import io.healthmesh.probe.http.HttpProber;
import io.healthmesh.probe.grpc.GrpcProber;
import io.healthmesh.probe.icmp.IcmpPinger;
import io.healthmesh.probe.icmp.IcmpProber;
import io.healthmesh.probe.tcp.TcpProber;
import io.healthmesh.probe.tls.ClientTlsContexts;
import io.healthmesh.probe.tls.TlsMaterial;
import io.healthmesh.probe.transport.ChosenTransport;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.healthmesh.probe.transport.ProbeTransport;
import io.healthmesh.probe.udp.UdpProber;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The {@link ProbeEngine} on Netty: TCP, UDP, HTTP, HTTPS, GRPC, ICMP and DNS probes, each on a fresh channel of the given
 * event-loop group, on the transport {@link ChosenTransport} picks at start (io_uring, epoll or NIO; ICMP keeps its
 * own socket). Thread-safe; {@link #probe} never blocks and its future never
 * completes exceptionally. Build it with {@link #create}.
 */
public final class NettyProbeEngine implements ProbeEngine {

    private static final Logger LOG = LoggerFactory.getLogger(NettyProbeEngine.class);

    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final AddressGate gate;
    private final ProbeRunner runner;
    private final IcmpPinger icmp;
    private final LoopWatch watch;
    private final ChosenTransport transport;
    private volatile boolean closed;

    private NettyProbeEngine(EventLoopGroup group, boolean ownsGroup, AddressGate gate, ProbeRunner runner,
                             IcmpPinger icmp, LoopWatch watch, ChosenTransport transport) {
        this.transport = transport;
        this.group = group;
        this.ownsGroup = ownsGroup;
        this.gate = gate;
        this.runner = runner;
        this.icmp = icmp;
        this.watch = watch;
    }

    /**
     * Creates an engine.
     *
     * @param config the engine's settings
     * @param group an NIO, epoll or io_uring event-loop group to run on (the caller keeps owning it; probes use its
     *              transport), or {@code null} for the engine to create one of {@code config.eventLoopThreads()}
     *              threads on {@code config.transport()} and shut it down on {@link #close()}
     * @throws IllegalStateException when {@code config.transport()} forces a transport this system cannot run
     *              ({@code transport: epoll (unavailable: ...)})
     */
    public static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group) {
        return create(config, group, ProbeSource.NONE);
    }

    /** {@link #create(ProbeEngineConfig, EventLoopGroup)} with a source address and an L4 marker. */
    public static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group, ProbeSource source) {
        return create(config, group, source, TlsMaterial.NONE);
    }

    /**
     * {@link #create(ProbeEngineConfig, EventLoopGroup)} with a source address, an L4 marker and the trust bundles and
     * client keys that definitions name by id.
     */
    public static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group, ProbeSource source,
                                          TlsMaterial tls) {
        return create(config, group, new NettyHostResolver(config.dns(), config.maxPendingResolutions()),
                source, tls);
    }

    static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group, HostResolver resolver) {
        return create(config, group, resolver, ProbeSource.NONE, TlsMaterial.NONE);
    }

    static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group, HostResolver resolver,
                                   ProbeSource source) {
        return create(config, group, resolver, source, TlsMaterial.NONE);
    }

    static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group, HostResolver resolver,
                                   ProbeSource source, TlsMaterial tlsMaterial) {
        requireNonNull(tlsMaterial, "tlsMaterial");
        requireNonNull(source, "source");
        requireNonNull(config, "config");
        requireNonNull(resolver, "resolver");
        boolean owns = group == null;
        ChosenTransport transport = owns ? ChosenTransport.choose(config.transport()) : ChosenTransport.of(group);
        if (!owns && config.transport() != ProbeTransport.AUTO && config.transport() != transport.kind()) {
            throw new IllegalArgumentException("transport: " + config.transport().settingName() + " (expected: "
                    + transport.kind().settingName() + " or auto, the transport of the given event-loop group)");
        }
        warmUp();
        EventLoopGroup loops = owns ? new MultiThreadIoEventLoopGroup(config.eventLoopThreads(),
                new DefaultThreadFactory("healthmesh-probe", true), transport.ioHandlerFactory()) : group;
        LOG.info("{}", transport.describe());
        ProbeBootstraps bootstraps = new ProbeBootstraps(transport, source.bindAddress());
        AddressGate gate = AddressGate.of(resolver, config);
        Map<Protocol, Prober> probers = new EnumMap<>(Protocol.class);
        probers.put(Protocol.TCP, new TcpProber(config.maxBodyBytes(), source, bootstraps));
        ClientTlsContexts tls = new ClientTlsContexts(tlsMaterial);
        HttpProber http = new HttpProber(config, tls, gate, bootstraps);
        probers.put(Protocol.HTTP, http);
        probers.put(Protocol.HTTPS, http);
        probers.put(Protocol.GRPC, new GrpcProber(config, tls, bootstraps));
        IcmpPinger pinger = new IcmpPinger(config.icmpSocket(), config.maxOutstandingEchoes());
        pinger.start(); // native loading here, never on an event loop; sockets still open on first use
        IcmpProber icmp = new IcmpProber(pinger);
        probers.put(Protocol.ICMP, icmp);
        probers.put(Protocol.UDP, new UdpProber(icmp, config.userAgent(), source, bootstraps));
        probers.put(Protocol.DNS, new DnsProber(bootstraps));
        LoopWatch watch = LoopWatch.start(loops);
        return new NettyProbeEngine(loops, owns, gate, new ProbeRunner(probers, gate, watch, config.stallFraction(),
                DeadlineLanes.forEach(loops)), pinger, watch, transport);
    }

    /** The cluster endpoints learnt while running that this engine refuses; replaced by the prober's refresher. */
    public DiscoveredEndpoints discoveredEndpoints() {
        return gate.discovered();
    }

    /** The transport the engine's TCP, UDP and HTTP(S) probes run on, and why it was chosen. */
    public ChosenTransport transport() {
        return transport;
    }

    /**
     * One-time initialisations (channel ids, the buffer pool, the HTTP codec) take up to seconds on a cold, busy
     * JVM; paying for them here keeps the first probes from being judged on class loading.
     */
    private static void warmUp() {
        DefaultChannelId.newInstance();
        ByteBufAllocator.DEFAULT.buffer(1).release();
        new HttpClientCodec();
    }

    @Override
    public CompletableFuture<ProbeReport> probe(TargetSpec target) {
        return probe(target, null);
    }

    /**
     * {@link #probe(TargetSpec)} watched step by step by {@code trace} (for {@code healthmesh probe}; {@code null}: by
     * no one). The verdict and timings are the same; the report is handed over once the rest of the response reached
     * the trace (its end, or {@link ProbeContext#TRACE_LINGER_MS} ms after the verdict at most).
     */
    public CompletableFuture<ProbeReport> probe(TargetSpec target, ProbeTrace trace) {
        if (target == null) {
            return CompletableFuture.completedFuture(internalError("target: null"));
        }
        if (closed) {
            return CompletableFuture.completedFuture(internalError("probe engine closed"));
        }
        try {
            CompletableFuture<ProbeReport> report = runner.run(target, group.next(), trace);
            if (closed) {
                runner.abortAll("probe engine closed"); // close() raced with this call: do not leave it hanging
            }
            return report;
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(internalError(FailureClassifier.detail(e)));
        }
    }

    private static ProbeReport internalError(String message) {
        return ProbeReport.of(Outcome.INCONCLUSIVE, 0, InconclusiveCause.INTERNAL_ERROR.detail(message));
    }

    /**
     * The worst lateness of the engine's event loops since the previous call, in microseconds (each loop runs a
     * task every 50 ms and measures how late it ran); resets it. For the prober's own health.
     */
    public long takeWorstLoopLagMicros() {
        return watch.takeWorstMicros();
    }

    /** Probes started and not yet ended; for the prober's in-flight gauge. */
    public int inFlight() {
        return runner.inFlight();
    }

    /**
     * Ends every probe in flight as {@code INCONCLUSIVE} ("internal-error: probe engine closed"), then releases
     * sockets and threads.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        watch.close();
        runner.abortAll("probe engine closed"); // first: closing channels below must not produce other verdicts
        icmp.close();
        gate.close();
        if (ownsGroup) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
