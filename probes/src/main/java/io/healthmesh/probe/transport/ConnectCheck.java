package io.healthmesh.probe.transport;

import io.healthmesh.probe.ProbeContext;

import java.net.InetSocketAddress;

/**
 * A TCP check whose verdict is the connect: success once the connection is established (its connect time recorded),
 * else the kernel's answer ({@code CONNECTION_REFUSED}, unreachable) or the probe's deadline. Two implementations,
 * chosen once per engine by {@link ProbeBootstraps#connectCheck}: {@link ChannelConnectCheck} through a Netty channel
 * (every transport), {@link ChannelFreeConnectCheck} without one (epoll, about half the system calls), so that the
 * TCP prober never asks which transport it runs on.
 */
@FunctionalInterface
public interface ConnectCheck {

    /** Starts the check of {@code remote}; call on the probe's loop. Ends in a verdict on {@code probe}. */
    void start(ProbeContext probe, InetSocketAddress remote);
}
