package io.healthmesh.probe;

import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.resolve.HostResolver;
import io.healthmesh.probe.egress.AddressGate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * The engine's parts for tests in the protocol packages: probe contexts for a handler tested on its own (no deadline
 * lanes, no loop watch), and a runner of hand-made probers.
 */
public final class ProbeFixtures {

    private ProbeFixtures() {
    }

    /** A probe of {@code target} confined to {@code loop}, started now. */
    public static ProbeContext on(EventLoop loop, TargetSpec target) {
        return new ProbeContext(target, loop, System.nanoTime());
    }

    /**
     * A probe of {@code target} on an embedded loop of its own, for handlers that must be in place before their
     * channel is active.
     */
    public static ProbeContext onOwnLoop(TargetSpec target) {
        return on(new EmbeddedChannel().eventLoop(), target);
    }

    /** {@code text}'s bytes, one per character: what a test feeds a handler as received. */
    public static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
    }

    /**
     * A runner of {@code probers} behind {@code gate} that watches no loop: starts a probe of a target on a loop,
     * the report completing on that loop.
     */
    public static BiFunction<TargetSpec, EventLoop, CompletableFuture<ProbeReport>> runner(
            Map<Protocol, Prober> probers, AddressGate gate) {
        return new ProbeRunner(probers, gate)::run;
    }

    /** An engine on event loops of its own that resolves names with {@code resolver} (a fake DNS). */
    public static NettyProbeEngine engine(ProbeEngineConfig config, HostResolver resolver) {
        return NettyProbeEngine.create(config, null, resolver);
    }

    /** The probe's report, once it has one. */
    public static CompletableFuture<ProbeReport> report(ProbeContext probe) {
        return probe.result();
    }
}
