package io.healthmesh.pipeline;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * The stacks of this JVM's Kafka client threads (stream threads, producer and consumer network threads, the
 * prober's and aggregator's own), for a test to log what each one waits on while an event is late. Broker threads
 * are left out: an in-process cluster has hundreds.
 */
final class ClientThreads {

    /** Frames shown per thread: enough to see the blocking call and who made it. */
    private static final int FRAMES = 14;

    private ClientThreads() {
    }

    /** One block per matching thread: name, state, and its top {@value #FRAMES} frames. */
    static String dump() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> isClient(e.getKey().getName()))
                .sorted(Map.Entry.comparingByKey((a, b) -> a.getName().compareTo(b.getName())))
                .map(e -> e.getKey().getName() + " " + e.getKey().getState() + "\n" + frames(e.getValue()))
                .collect(Collectors.joining("\n"));
    }

    private static boolean isClient(String name) {
        return name.contains("StreamThread") || name.contains("kafka-producer-network-thread")
                || name.contains("consumer") || name.contains("prober") || name.contains("publish")
                || name.contains("aggregator");
    }

    private static String frames(StackTraceElement[] stack) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(FRAMES, stack.length); i++) {
            out.append("    at ").append(stack[i]).append('\n');
        }
        return out.toString();
    }
}
