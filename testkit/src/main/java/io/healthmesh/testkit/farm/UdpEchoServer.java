package io.healthmesh.testkit.farm;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;

import java.net.InetSocketAddress;

/**
 * A UDP target: echoes every datagram while up; while down it stays bound and stays silent (no echo and no
 * ICMP port-unreachable), so that a payload-mode probe times out, as against a hung service.
 */
final class UdpEchoServer implements TargetSwitch {

    private final Channel channel;
    private volatile boolean up = true;

    UdpEchoServer(EventLoopGroup group, String address) throws InterruptedException {
        this.channel = new Bootstrap()
                .group(group)
                .channel(NioDatagramChannel.class)
                .handler(new Echo())
                .bind(new InetSocketAddress(address, 0)).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void set(boolean answer) {
        this.up = answer;
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
    }

    private final class Echo extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            if (up) {
                ctx.writeAndFlush(new DatagramPacket(packet.content().retainedDuplicate(), packet.sender()));
            }
        }
    }
}
