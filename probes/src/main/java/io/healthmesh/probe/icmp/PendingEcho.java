package io.healthmesh.probe.icmp;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** One echo from submission to its result; counted in the pinger's bound until it completes. */
final class PendingEcho {

    final InetAddress address;
    final long deadlineNanos;
    final CompletableFuture<EchoResult> result = new CompletableFuture<>();
    long sentNanos;
    private final AtomicBoolean completed = new AtomicBoolean();
    private final AtomicInteger outstanding;

    PendingEcho(InetAddress address, long deadlineNanos, AtomicInteger outstanding) {
        this.address = address;
        this.deadlineNanos = deadlineNanos;
        this.outstanding = outstanding;
    }

    /** Completes once; the bound is released before the future completes, so a caller that sees it sees the slot free. */
    void complete(EchoResult outcome) {
        if (completed.compareAndSet(false, true)) {
            outstanding.decrementAndGet();
            result.complete(outcome);
        }
    }
}
