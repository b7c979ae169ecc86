package io.healthmesh.probe.resolve;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.dns.DefaultDnsCache;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Netty's asynchronous DNS resolver on one event-loop thread of its own: answers cached for their TTL (at most
 * {@link DnsConfig#maxTtlSeconds()}), failures for {@link DnsConfig#negativeTtlSeconds()}, concurrent lookups of
 * the same name merged into one query, a timeout per query, {@code /etc/hosts} first, and the name servers and
 * search domains of {@code /etc/resolv.conf} unless servers are configured. IP literals are parsed without a
 * lookup. At most {@code maxPending} lookups are in flight; one more fails at once with a
 * {@link ResolverBusyException} (the prober's trouble: {@code INCONCLUSIVE}), never with {@code DNS_FAILURE}.
 * Cancelling a returned future (the probe's deadline passed) cancels the lookup.
 */
public final class NettyHostResolver implements HostResolver {

    /** Names being resolved at once that share one query. */
    private static final int CONSOLIDATE = 10_000;

    private final EventLoopGroup loop;
    private final DnsNameResolver resolver;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();

    public NettyHostResolver(DnsConfig config, int maxPending) {
        requireNonNull(config, "config");
        this.maxPending = maxPending;
        this.loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("healthmesh-dns", true),
                NioIoHandler.newFactory());
        try {
            DnsNameResolverBuilder builder = new DnsNameResolverBuilder(loop.next())
                    .datagramChannelType(NioDatagramChannel.class)
                    .socketChannelType(NioSocketChannel.class) // TCP when an answer is truncated
                    .queryTimeoutMillis(config.queryTimeoutMs())
                    .resolveCache(new DefaultDnsCache(0, config.maxTtlSeconds(), config.negativeTtlSeconds()))
                    .consolidateCacheSize(CONSOLIDATE);
            if (!config.servers().isEmpty()) {
                List<InetSocketAddress> servers = config.servers().stream().map(DnsServers::parse).toList();
                builder.nameServerProvider(new SequentialDnsServerAddressStreamProvider(servers));
            } else {
                builder.nameServerProvider(DnsServerAddressStreamProviders.platformDefault());
            }
            this.resolver = builder.build();
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    @Override
    public CompletableFuture<InetAddress> resolve(String host) {
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
        if (literal != null) {
            try {
                return CompletableFuture.completedFuture(InetAddress.getByAddress(literal));
            } catch (UnknownHostException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            return CompletableFuture.failedFuture(new ResolverBusyException(host + ": resolver busy ("
                    + maxPending + " lookups in flight)"));
        }
        CompletableFuture<InetAddress> result = new CompletableFuture<>();
        Future<InetAddress> lookup;
        try {
            lookup = resolver.resolve(host);
        } catch (RuntimeException e) {
            pending.decrementAndGet();
            return CompletableFuture.failedFuture(e);
        }
        lookup.addListener(done -> {
            pending.decrementAndGet();
            if (done.isSuccess()) {
                result.complete(lookup.getNow());
            } else if (!done.isCancelled()) {
                result.completeExceptionally(done.cause());
            }
        });
        result.whenComplete((address, failure) -> {
            if (result.isCancelled()) {
                lookup.cancel(false);
            }
        });
        return result;
    }

    /** Lookups in flight now. */
    int pending() {
        return pending.get();
    }

    @Override
    public void close() {
        resolver.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
