package io.healthmesh.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code JfrHotMethods <recording.jfr> [top]}: where a recorded JVM spent its CPU, from JFR's execution samples
 * (the JDK 17 {@code jfr} tool has no such view): the share of samples per thread, per leaf method and per
 * package of the leaf method. This is what docs/BENCHMARKS.md quotes when it says why a target is missed.
 */
public final class JfrHotMethods {

    private JfrHotMethods() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: JfrHotMethods <recording.jfr> [top]");
            System.exit(2);
        }
        int top = args.length == 2 ? Integer.parseInt(args[1]) : 20;
        Map<String, Long> byMethod = new HashMap<>();
        Map<String, Long> byPackage = new HashMap<>();
        Map<String, Long> byThread = new HashMap<>();
        long samples = 0;
        try (RecordingFile file = new RecordingFile(Path.of(args[0]))) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                RecordedStackTrace stack = event.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                samples++;
                RecordedFrame leaf = stack.getFrames().get(0);
                String type = leaf.getMethod().getType().getName();
                byMethod.merge(type + "." + leaf.getMethod().getName(), 1L, Long::sum);
                byPackage.merge(packageOf(type), 1L, Long::sum);
                RecordedThread thread = event.getThread("sampledThread");
                byThread.merge(thread == null ? "?" : threadGroup(thread.getJavaName()), 1L, Long::sum);
            }
        }
        System.out.printf(Locale.ROOT, "%d execution samples in %s%n", samples, args[0]);
        print("threads", byThread, samples, top);
        print("packages of the leaf frame", byPackage, samples, top);
        print("leaf methods", byMethod, samples, top);
    }

    private static void print(String title, Map<String, Long> counts, long total, int top) {
        System.out.println("\n" + title + ":");
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .forEach(e -> System.out.printf(Locale.ROOT, "  %5.1f%%  %s%n", 100.0 * e.getValue() / total,
                        e.getKey()));
    }

    /** The first three segments of a class name: {@code io.netty.channel}, {@code org.apache.kafka}. */
    static String packageOf(String type) {
        String[] parts = type.split("\\.");
        int keep = Math.min(parts.length - 1, 3);
        return keep <= 0 ? type : String.join(".", java.util.Arrays.copyOf(parts, keep));
    }

    /** Thread names without their trailing numbers, so that pools fold into one line. */
    static String threadGroup(String name) {
        return name == null ? "?" : name.replaceAll("[-#]?\\d+$", "").replaceAll("-\\d+-", "-n-");
    }
}
