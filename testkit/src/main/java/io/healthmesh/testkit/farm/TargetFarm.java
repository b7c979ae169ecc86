package io.healthmesh.testkit.farm;

import io.healthmesh.core.target.Protocol;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * The loopback target farm: opens the listeners of a {@link FarmLayout}, hands out its {@link FarmTarget}s,
 * switches them up and down and records each switch in a {@link TransitionLog}. Every target starts up.
 * Thread-safe; close it to release every listener.
 */
public final class TargetFarm implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetFarm.class);

    private final EventLoopGroup group;
    private final Map<FarmTarget, TargetSwitch> switches = new LinkedHashMap<>();
    private final Map<FarmTarget, Boolean> state = new LinkedHashMap<>();
    private final List<AutoCloseable> servers = new ArrayList<>();
    private final TransitionLog log;

    private TargetFarm(int ioThreads, Clock clock) {
        this.group = new MultiThreadIoEventLoopGroup(ioThreads, NioIoHandler.newFactory());
        this.log = new TransitionLog(clock);
    }

    /** Opens every listener of {@code layout} on {@code ioThreads} event-loop threads. */
    public static TargetFarm start(FarmLayout layout, int ioThreads) throws InterruptedException {
        return start(layout, ioThreads, Clock.systemUTC());
    }

    /**
     * {@code listeners} TCP targets from {@link FarmLayout#DEFAULT_FIRST_ADDRESS}, one address each, on one
     * event-loop thread: the backends of an integration test.
     */
    public static TargetFarm tcp(int listeners) {
        try {
            return start(FarmLayout.of(listeners, 0, 1, 0), 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the farm's listeners were opening", e);
        }
    }

    static TargetFarm start(FarmLayout layout, int ioThreads, Clock clock) throws InterruptedException {
        requireNonNull(layout, "layout");
        if (ioThreads < 1 || ioThreads > 16) {
            throw new IllegalArgumentException("ioThreads: " + ioThreads + " (expected: 1..16)");
        }
        TargetFarm farm = new TargetFarm(ioThreads, clock);
        try {
            farm.open(layout);
        } catch (InterruptedException | RuntimeException e) {
            farm.close();
            throw e;
        }
        LOG.info("farm up: {} TCP, {} HTTP ({} paths), {} UDP targets from {}", layout.tcpListeners(),
                layout.httpListeners(), layout.httpListeners() * layout.httpPathsPerListener(),
                layout.udpListeners(), layout.firstAddress());
        return farm;
    }

    private void open(FarmLayout layout) throws InterruptedException {
        int next = 0;
        for (int i = 0; i < layout.tcpListeners(); i++) {
            SwitchableListener server = TcpAcceptServer.on(group, layout.addressOf(next++));
            servers.add(server);
            int port = server.start();
            add(new FarmTarget("tcp-" + i, Protocol.TCP, layout.addressOf(next - 1), port, null), server);
        }
        for (int i = 0; i < layout.httpListeners(); i++) {
            String address = layout.addressOf(next++);
            HttpStatusServer server = new HttpStatusServer(group, address);
            servers.add(server);
            for (int p = 0; p < layout.httpPathsPerListener(); p++) {
                String path = "/t/" + p;
                add(new FarmTarget("http-" + i + "-" + p, Protocol.HTTP, address, server.port(), path),
                        server.path(path));
            }
        }
        for (int i = 0; i < layout.udpListeners(); i++) {
            String address = layout.addressOf(next++);
            UdpEchoServer server = new UdpEchoServer(group, address);
            servers.add(server);
            add(new FarmTarget("udp-" + i, Protocol.UDP, address, server.port(), null), server);
        }
    }

    private synchronized void add(FarmTarget target, TargetSwitch targetSwitch) {
        switches.put(target, targetSwitch);
        state.put(target, Boolean.TRUE);
    }

    /** Every target, TCP first, then HTTP, then UDP, in a stable order. */
    public synchronized List<FarmTarget> targets() {
        return List.copyOf(switches.keySet());
    }

    /** The targets of one protocol, in a stable order. */
    public synchronized List<FarmTarget> targets(Protocol protocol) {
        return switches.keySet().stream().filter(t -> t.protocol() == protocol).toList();
    }

    /** Whether {@code target} currently answers. */
    public synchronized boolean isUp(FarmTarget target) {
        Boolean up = state.get(target);
        if (up == null) {
            throw new IllegalArgumentException("target: " + target.key() + " (expected: a target of this farm)");
        }
        return up;
    }

    /**
     * Switches {@code target} and records the instant once the change is in force; a switch to the state it
     * already has does nothing and returns {@code null}.
     */
    public Transition setUp(FarmTarget target, boolean up) throws InterruptedException {
        TargetSwitch targetSwitch;
        synchronized (this) {
            targetSwitch = switches.get(target);
        }
        if (targetSwitch == null) {
            throw new IllegalArgumentException("target: " + target.key() + " (expected: a target of this farm)");
        }
        synchronized (targetSwitch) {
            if (isUp(target) == up) {
                return null;
            }
            targetSwitch.set(up);
            synchronized (this) {
                state.put(target, up);
            }
            return log.record(target, up);
        }
    }

    /** The switches made so far. */
    public TransitionLog transitions() {
        return log;
    }

    @Override
    public void close() {
        for (AutoCloseable server : servers) {
            try {
                server.close();
            } catch (Exception e) {
                LOG.warn("farm listener did not close cleanly", e);
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
