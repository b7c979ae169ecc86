package io.healthmesh.ops;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admits or closes a newly accepted connection before anything is read from it. An ordinary connection counts
 * against the server's cap and against its client's share (one source address); past either, the connection
 * may take a place in the probe reserve, which serves only {@code /healthz} and {@code /readyz} under
 * {@link HttpLimits#PROBE_DEADLINE} (see {@link #probeOnly}), at most {@link HttpLimits#PROBE_CONNECTIONS_PER_CLIENT}
 * per client; past that it is closed. So one client cannot hold every connection, and when many clients do, an
 * orchestrator's probe still gets in. Shared by every connection of one server; counts what it refused.
 */
@ChannelHandler.Sharable
public final class ConnectionCap extends ChannelInboundHandlerAdapter {

    private enum Place { ORDINARY, PROBE }

    private static final AttributeKey<Place> PLACE = AttributeKey.valueOf("healthmesh.connection.place");

    private final int max;
    private final int perClient;
    private final int probeReserve;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger probeOpen = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    /** Connections per client, ordinary and probe apart; an entry goes when both reach zero, so at most one per connection. */
    private final ConcurrentHashMap<InetAddress, int[]> clients = new ConcurrentHashMap<>();

    /** A cap of {@code max} connections, no per-client share below it, and a reserve of one probe connection. */
    public ConnectionCap(int max) {
        this(max, max, 1);
    }

    public ConnectionCap(int max, int perClient, int probeReserve) {
        if (max < 1) {
            throw new IllegalArgumentException("max.connections: " + max + " (expected: at least 1)");
        }
        if (perClient < 1 || perClient > max) {
            throw new IllegalArgumentException("max.connections.per.client: " + perClient + " (expected: 1.." + max + ")");
        }
        if (probeReserve < 1) {
            throw new IllegalArgumentException("probe.connections: " + probeReserve + " (expected: at least 1)");
        }
        this.max = max;
        this.perClient = perClient;
        this.probeReserve = probeReserve;
    }

    /** The cap of these limits. */
    public static ConnectionCap of(HttpLimits limits) {
        return new ConnectionCap(limits.maxConnections(), limits.maxConnectionsPerClient(), limits.probeConnections());
    }

    /** True when this connection holds a place of the probe reserve: it may be answered on the probe paths only. */
    public static boolean probeOnly(Channel channel) {
        return channel.attr(PLACE).get() == Place.PROBE;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        Place place = admit(client(ctx.channel().remoteAddress()));
        if (place == null) {
            refused.incrementAndGet();
            ctx.close();
            return;
        }
        ctx.channel().attr(PLACE).set(place);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Place place = ctx.channel().attr(PLACE).getAndSet(null);
        if (place != null) {
            release(client(ctx.channel().remoteAddress()), place);
        }
        super.channelInactive(ctx);
    }

    private Place admit(InetAddress client) {
        Place[] admitted = new Place[1];
        clients.compute(client, (address, counts) -> {
            int[] c = counts == null ? new int[2] : counts;
            if (c[0] < perClient && open.incrementAndGet() <= max) {
                c[0]++;
                admitted[0] = Place.ORDINARY;
            } else {
                if (c[0] < perClient) {
                    open.decrementAndGet();
                }
                if (c[1] < HttpLimits.PROBE_CONNECTIONS_PER_CLIENT && probeOpen.incrementAndGet() <= probeReserve) {
                    c[1]++;
                    admitted[0] = Place.PROBE;
                } else if (c[1] < HttpLimits.PROBE_CONNECTIONS_PER_CLIENT) {
                    probeOpen.decrementAndGet();
                }
            }
            return c[0] == 0 && c[1] == 0 ? null : c;
        });
        return admitted[0];
    }

    private void release(InetAddress client, Place place) {
        clients.computeIfPresent(client, (address, c) -> {
            if (place == Place.ORDINARY) {
                c[0]--;
                open.decrementAndGet();
            } else {
                c[1]--;
                probeOpen.decrementAndGet();
            }
            return c[0] == 0 && c[1] == 0 ? null : c;
        });
    }

    private static InetAddress client(SocketAddress remote) {
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : InetAddress.getLoopbackAddress();
    }

    /** Ordinary connections open now. */
    public int open() {
        return open.get();
    }

    /** Connections of the probe reserve open now. */
    public int probeOpen() {
        return probeOpen.get();
    }

    /** Connections closed on accept because every place they could take was taken. */
    public long refused() {
        return refused.get();
    }
}
