package io.healthmesh.prober.schedule;

import io.healthmesh.core.target.TargetSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Keeps every completed probe and counts skips and delays. */
final class RecordingListener implements ProbeListener {

    final List<CompletedProbe> completed = new ArrayList<>();
    final Map<SkipReason, AtomicInteger> skipped = new ConcurrentHashMap<>();
    final AtomicInteger delayed = new AtomicInteger();

    @Override
    public synchronized void completed(CompletedProbe probe) {
        completed.add(probe);
    }

    @Override
    public void skipped(TargetSpec target, SkipReason reason) {
        skipped.computeIfAbsent(reason, r -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void delayed(TargetSpec target) {
        delayed.incrementAndGet();
    }

    int skips(SkipReason reason) {
        AtomicInteger n = skipped.get(reason);
        return n == null ? 0 : n.get();
    }

    synchronized List<CompletedProbe> of(String targetId) {
        return completed.stream().filter(p -> p.target().id().equals(targetId)).toList();
    }
}
