/**
 * How probes reach the network: the transport chosen at start ({@code ChosenTransport}: epoll, NIO or io_uring),
 * the bootstraps and socket options of every connection ({@code ProbeBootstraps}), the connect-only check with its
 * two implementations ({@code ConnectCheck}: through a channel, or without one on epoll, {@code
 * ChannelFreeConnection}), the epoll loops' registration table ({@code FdTable}) and the plumbing protocols share to
 * read a response ({@code ResponseByteCounter}, {@code ByteWindow}). Every use of Netty's internals is in
 * {@code NettyInternals}.
 */
package io.healthmesh.probe.transport;
