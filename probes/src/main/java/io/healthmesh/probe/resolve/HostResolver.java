package io.healthmesh.probe.resolve;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/** Turns a target address (a name or an IP literal) into one IP address without blocking the caller. */
public interface HostResolver extends AutoCloseable {

    /** Completes with the address, or exceptionally when the name does not resolve. */
    CompletableFuture<InetAddress> resolve(String host);

    @Override
    void close();
}
