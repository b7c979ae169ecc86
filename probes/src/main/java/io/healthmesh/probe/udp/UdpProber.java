package io.healthmesh.probe.udp;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.UdpMode;
import io.healthmesh.core.target.UdpSpec;
import io.healthmesh.probe.ProbeContext;
import io.healthmesh.probe.ProbeSource;
import io.healthmesh.probe.Prober;
import io.healthmesh.probe.icmp.IcmpProber;
import io.healthmesh.probe.transport.ProbeBootstraps;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * UDP, on a <em>connected</em> datagram channel so that the kernel reports an ICMP port-unreachable for the
 * port as a {@code PortUnreachableException} ({@code PORT_UNREACHABLE}).
 * <ul>
 *   <li>payload mode: sends the request (UTF-8 text, or bytes given in hex); success only when a datagram
 *       containing (or, with {@code exactMatch}, equal to) the expected response comes back before the deadline;
 *       any other datagram is {@code UNEXPECTED_RESPONSE}.</li>
 *   <li>port mode: an ICMP echo to the host must succeed first; then a datagram goes to the port and silence
 *       until the deadline is a success. Linux rate-limits ICMP errors, so under load a closed port can look
 *       open: payload mode is the reliable one.</li>
 * </ul>
 */
public final class UdpProber implements Prober {

    private final IcmpProber icmp;
    private final byte[] portModePayload;
    private final ProbeBootstraps bootstraps;

    UdpProber(IcmpProber icmp, String userAgent) {
        this(icmp, userAgent, ProbeSource.NONE, ProbeBootstraps.NIO);
    }

    /**
     * Port mode sends the L4 marker when one is set, else the user agent. {@code bootstraps}: the engine's, built
     * with its transport and {@code source}'s address.
     */
    public UdpProber(IcmpProber icmp, String userAgent, ProbeSource source, ProbeBootstraps bootstraps) {
        this.icmp = icmp;
        byte[] marker = source.markerBytes();
        this.portModePayload = marker != null ? marker : userAgent.getBytes(StandardCharsets.US_ASCII);
        this.bootstraps = bootstraps;
    }

    @Override
    public void probe(ProbeContext probe, InetAddress address) {
        UdpSpec spec = probe.target().udp();
        if (spec.mode() == UdpMode.PAYLOAD) {
            send(probe, address, spec.request() == null ? new byte[0] : spec.requestBytes(),
                    spec.expectedBytes(), spec.exactMatch(), false);
        } else {
            byte[] payload = spec.request() == null ? portModePayload : spec.requestBytes();
            icmp.ping(probe, address, reply -> send(probe, address, payload, null, false, true));
        }
    }

    private void send(ProbeContext probe, InetAddress address, byte[] payload, byte[] expected, boolean exact,
                      boolean portMode) {
        UdpResponseHandler handler = new UdpResponseHandler(probe, expected, exact);
        ChannelFuture connect = bootstraps.udp(probe, address, handler)
                .connect(new InetSocketAddress(address, probe.target().port()));
        probe.track(connect.channel());
        connect.addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                probe.fail(f.cause());
                return;
            }
            if (portMode) {
                probe.deadlineMeans(Outcome.SUCCESS, "no ICMP port-unreachable within " + probe.target().timeoutMs() + " ms");
            }
            probe.phase(portMode ? "listening for ICMP port-unreachable" : "awaiting UDP response");
            f.channel().writeAndFlush(Unpooled.wrappedBuffer(payload)).addListener((ChannelFuture w) -> {
                if (!w.isSuccess()) {
                    probe.fail(w.cause());
                }
            });
        });
    }
}
