package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.icmp.IcmpPinger;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The {@link ProbeEngine} on Netty (NIO transport): TCP, UDP, HTTP, HTTPS and ICMP probes, each on a fresh
 * channel of the given event-loop group. Thread-safe; {@link #probe} never blocks and its future never
 * completes exceptionally. Build it with {@link #create}.
 */
public final class NettyProbeEngine implements ProbeEngine {

    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final AddressGate gate;
    private final ProbeRunner runner;
    private final IcmpPinger icmp;
    private volatile boolean closed;

    private NettyProbeEngine(EventLoopGroup group, boolean ownsGroup, AddressGate gate, ProbeRunner runner,
                             IcmpPinger icmp) {
        this.group = group;
        this.ownsGroup = ownsGroup;
        this.gate = gate;
        this.runner = runner;
        this.icmp = icmp;
    }

    /**
     * Creates an engine.
     *
     * @param config the engine's settings
     * @param group an NIO event-loop group to run on (the caller keeps owning it), or {@code null} for the engine
     *              to create one of {@code config.eventLoopThreads()} threads and shut it down on {@link #close()}
     */
    public static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group) {
        return create(config, group, new JdkHostResolver(config.resolverThreads(), config.maxPendingResolutions()));
    }

    static NettyProbeEngine create(ProbeEngineConfig config, EventLoopGroup group, HostResolver resolver) {
        requireNonNull(config, "config");
        requireNonNull(resolver, "resolver");
        warmUp();
        boolean owns = group == null;
        EventLoopGroup loops = owns ? new MultiThreadIoEventLoopGroup(config.eventLoopThreads(),
                new DefaultThreadFactory("healthmesh-probe", true), NioIoHandler.newFactory()) : group;
        AddressGate gate = new AddressGate(resolver, new EgressPolicy(config.denyList(), config.allowList(),
                EgressPolicy.resolve(config.deniedEndpoints())));
        Map<Protocol, Prober> probers = new EnumMap<>(Protocol.class);
        probers.put(Protocol.TCP, new TcpProber(config.maxBodyBytes()));
        HttpProber http = new HttpProber(config, new TlsContexts(), gate);
        probers.put(Protocol.HTTP, http);
        probers.put(Protocol.HTTPS, http);
        IcmpPinger pinger = new IcmpPinger(config.icmpSocket(), config.maxOutstandingEchoes());
        pinger.start(); // native loading here, never on an event loop; sockets still open on first use
        IcmpProber icmp = new IcmpProber(pinger);
        probers.put(Protocol.ICMP, icmp);
        probers.put(Protocol.UDP, new UdpProber(icmp, config.userAgent()));
        return new NettyProbeEngine(loops, owns, gate, new ProbeRunner(probers, gate), pinger);
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
        if (target == null) {
            return CompletableFuture.completedFuture(ProbeReport.of(Outcome.ERROR, 0, "target: null"));
        }
        if (closed) {
            return CompletableFuture.completedFuture(ProbeReport.of(Outcome.ERROR, 0, "probe engine closed"));
        }
        try {
            CompletableFuture<ProbeReport> report = runner.run(target, group.next());
            if (closed) {
                runner.abortAll("probe engine closed"); // close() raced with this call: do not leave it hanging
            }
            return report;
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(ProbeReport.of(Outcome.ERROR, 0, FailureClassifier.detail(e)));
        }
    }

    /** Probes started and not yet ended; for the prober's in-flight gauge. */
    public int inFlight() {
        return runner.inFlight();
    }

    /** Ends every probe in flight with {@code ERROR} ("probe engine closed"), then releases sockets and threads. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        runner.abortAll("probe engine closed"); // first: closing channels below must not produce other verdicts
        icmp.close();
        gate.close();
        if (ownsGroup) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
