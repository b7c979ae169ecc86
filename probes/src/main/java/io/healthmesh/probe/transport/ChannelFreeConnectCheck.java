package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;

import java.net.InetSocketAddress;

/**
 * A {@link ConnectCheck} on the epoll transport, without a Netty channel ({@link ChannelFreeConnection}): socket, two
 * options, a non-blocking {@code connect}, one {@code epoll_ctl} to learn when the connect ends, the connect's result
 * and {@code close}. Eight system calls, as HAProxy makes per check; a Netty channel makes 16.5 for the same check
 * (docs/BENCHMARKS.md, "Syscalls per probe"). The verdict is the connect's (a refusal is the kernel's
 * {@code ConnectException}, as with a channel).
 */
final class ChannelFreeConnectCheck extends ChannelFreeConnection {

    private ChannelFreeConnectCheck(ProbeContext probe) {
        super(probe);
    }

    /**
     * Starts a check of {@code remote} from {@code local} ({@code null}: the system's source address); call on the
     * probe's loop, which must be an epoll loop. Ends in a verdict on {@code probe}: success once connected, the
     * kernel's error, or the probe's deadline.
     */
    static void start(ProbeContext probe, InetSocketAddress remote, InetSocketAddress local) {
        new ChannelFreeConnectCheck(probe).open(remote, local, false);
    }

    @Override
    protected void onConnected() {
        probe.connected();
        probe.succeed("connected");
    }

    @Override
    protected void onReady(boolean writable, boolean readable) {
        // never reached: the verdict came with the connect
    }
}
