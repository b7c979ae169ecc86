package io.healthmesh.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code bench jfr-hot <recording.jfr> [top]}: where a recorded JVM spent its CPU, from JFR's execution samples
 * (the JDK 17 {@code jfr} tool has no such view): the share of samples per thread, per leaf method and per
 * package of the leaf method. This is what docs/BENCHMARKS.md quotes when it says why a target is missed.
 */
@Command(name = "jfr-hot", mixinStandardHelpOptions = true, description = "Where a JFR recording's JVM spent its "
        + "CPU: samples per thread, per leaf method and per package.")
public final class JfrHotMethods implements Callable<Integer> {

    @Parameters(index = "0", description = "The recording (.jfr).")
    Path recording;
    @Parameters(arity = "0..1", index = "1", defaultValue = "20", description = "Rows per table (default ${DEFAULT-VALUE}).")
    int top;

    @Override
    public Integer call() throws IOException {
        Map<String, Long> byMethod = new HashMap<>();
        Map<String, Long> byPackage = new HashMap<>();
        Map<String, Long> byThread = new HashMap<>();
        Map<String, Double> threadCpu = new HashMap<>();
        Map<String, Double> threadSystem = new HashMap<>();
        long samples = 0;
        long cpuLoads = 0;
        double jvmUser = 0;
        double jvmSystem = 0;
        long gcPauseNanos = 0;
        long compileNanos = 0;
        long threadLoadEvents = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                switch (event.getEventType().getName()) {
                    case "jdk.CPULoad" -> {
                        cpuLoads++;
                        jvmUser += event.getFloat("jvmUser");
                        jvmSystem += event.getFloat("jvmSystem");
                        continue;
                    }
                    case "jdk.ThreadCPULoad" -> {
                        threadLoadEvents++;
                        RecordedThread t = event.getThread("eventThread");
                        String name = t == null ? "?" : threadGroup(t.getJavaName());
                        threadCpu.merge(name, (double) event.getFloat("user") + event.getFloat("system"), Double::sum);
                        threadSystem.merge(name, (double) event.getFloat("system"), Double::sum);
                        continue;
                    }
                    case "jdk.GarbageCollection" -> {
                        gcPauseNanos += event.getDuration("sumOfPauses").toNanos();
                        continue;
                    }
                    case "jdk.Compilation" -> {
                        compileNanos += event.getDuration().toNanos();
                        continue;
                    }
                    case "jdk.ExecutionSample" -> {
                        // handled below
                    }
                    default -> {
                        continue;
                    }
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
        System.out.printf(Locale.ROOT, "%s%n", recording);
        if (cpuLoads > 0) {
            // jdk.CPULoad: the JVM's share of the machine (all cores), averaged over the recording
            int cores = Runtime.getRuntime().availableProcessors();
            System.out.printf(Locale.ROOT, "JVM CPU: %.2f cores user + %.2f cores system (average of %d readings)%n",
                    jvmUser / cpuLoads * cores, jvmSystem / cpuLoads * cores, cpuLoads);
        }
        System.out.printf(Locale.ROOT, "GC pauses: %.1f s in all; JIT compilations: %.1f s in all%n",
                gcPauseNanos / 1e9, compileNanos / 1e9);
        if (threadLoadEvents > 0) {
            double total = threadCpu.values().stream().mapToDouble(Double::doubleValue).sum();
            System.out.println("\nCPU by Java thread (jdk.ThreadCPULoad, share of the Java threads' CPU; of which system):");
            threadCpu.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(top)
                    .forEach(e -> System.out.printf(Locale.ROOT, "  %5.1f%%  %s (system %.0f%%)%n",
                            100 * e.getValue() / total, e.getKey(),
                            e.getValue() == 0 ? 0 : 100 * threadSystem.get(e.getKey()) / e.getValue()));
        }
        System.out.printf(Locale.ROOT, "%n%d execution samples (Java code only; time in system calls and native code "
                + "is not sampled)%n", samples);
        print("threads", byThread, samples, top);
        print("packages of the leaf frame", byPackage, samples, top);
        print("leaf methods", byMethod, samples, top);
        return 0;
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
