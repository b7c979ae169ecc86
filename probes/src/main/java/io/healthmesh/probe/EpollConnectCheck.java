package io.healthmesh.probe;

import io.netty.channel.epoll.EpollIoOps;

import java.net.InetSocketAddress;

/**
 * A connect-only TCP check on the epoll transport, without a Netty channel ({@link EpollCheck}): socket, two
 * options, a non-blocking {@code connect}, one {@code epoll_ctl} to learn when the connect ends, the connect's result
 * and {@code close}. Eight system calls, as HAProxy makes per check; a Netty channel makes 16.5 for the same check
 * (docs/BENCHMARKS.md, "Syscalls per probe"). The verdict is the connect's (a refusal is the kernel's
 * {@code ConnectException}, as with a channel).
 */
final class EpollConnectCheck extends EpollCheck {

    private EpollConnectCheck(ProbeContext probe) {
        super(probe);
    }

    /**
     * Starts a check of {@code remote} from {@code local} ({@code null}: the system's source address); call on the
     * probe's loop, which must be an epoll loop. Ends in a verdict on {@code probe}: success once connected, the
     * kernel's error, or the probe's deadline.
     */
    static void start(ProbeContext probe, InetSocketAddress remote, InetSocketAddress local) {
        new EpollConnectCheck(probe).open(remote, local, EpollIoOps.EPOLLOUT);
    }

    @Override
    protected void onConnected() {
        probe.connected();
        probe.succeed("connected");
    }

    @Override
    protected void onReady(EpollIoOps ops) {
        // never reached: the verdict came with the connect
    }
}
