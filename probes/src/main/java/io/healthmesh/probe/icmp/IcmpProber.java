package io.healthmesh.probe.icmp;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.Prober;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * ICMP echo: one echo request, success on the echo reply within the timeout. The native work is the
 * {@link IcmpPinger}'s, on its own thread; the result comes back to the probe's event loop. Also used by UDP
 * port mode, which pings the host before sending its datagram.
 */
public final class IcmpProber implements Prober {

    private final IcmpPinger pinger;

    public IcmpProber(IcmpPinger pinger) {
        this.pinger = pinger;
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        ping(probe, address, reply -> probe.succeed("echo reply in "
                + TimeUnit.NANOSECONDS.toMicros(reply.roundTripNanos()) + " µs"));
    }

    /** Pings {@code address}; runs {@code onReply} on the probe's loop on a reply, else ends the probe. */
    public void ping(ProbeContext probe, InetAddress address, Consumer<EchoResult> onReply) {
        probe.phase("awaiting ICMP echo reply");
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(probe.target().timeoutMs());
        pinger.echo(address, timeoutNanos).whenComplete((result, failure) -> probe.execute(() -> {
            if (failure != null) {
                probe.fail(failure);
                return;
            }
            switch (result.status()) {
                case REPLY -> onReply.accept(result);
                case UNREACHABLE, NO_ROUTE -> probe.finish(Outcome.HOST_UNREACHABLE, result.detail());
                case TIMEOUT -> probe.finish(Outcome.TIMEOUT, result.detail());
                // the prober's own trouble: its table of echoes is full, or it cannot use ICMP at all
                case UNAVAILABLE -> probe.finish(Outcome.INCONCLUSIVE, (result.detail().startsWith("too many")
                        ? InconclusiveCause.QUEUE_FULL : InconclusiveCause.INTERNAL_ERROR).detail(result.detail()));
            }
        }));
    }
}
