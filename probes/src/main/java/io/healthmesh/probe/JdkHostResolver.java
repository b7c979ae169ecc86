package io.healthmesh.probe;

import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's resolver (so {@code /etc/hosts}, {@code nsswitch} and the JVM's DNS cache apply) run on a small
 * pool of its own threads, because {@link InetAddress#getByName} blocks and must never run on an event loop.
 * IP literals are parsed without a lookup. The wait queue is bounded; a full queue fails the resolution with a
 * {@link ResolverBusyException}.
 */
final class JdkHostResolver implements HostResolver {

    private final ThreadPoolExecutor pool;

    JdkHostResolver(int threads, int maxPending) {
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(maxPending),
                new DefaultThreadFactory("healthmesh-resolver", true));
        pool.allowCoreThreadTimeOut(true);
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
        CompletableFuture<InetAddress> result = new CompletableFuture<>();
        try {
            pool.execute(() -> {
                try {
                    result.complete(InetAddress.getByName(host));
                } catch (UnknownHostException | RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new ResolverBusyException(host + ": resolver saturated ("
                    + pool.getQueue().size() + " resolutions waiting)"));
        }
        return result;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
