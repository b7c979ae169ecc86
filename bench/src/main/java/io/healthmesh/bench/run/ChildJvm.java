package io.healthmesh.bench.run;

import io.healthmesh.bench.peers.ProcessCpu;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A healthmesh worker in its own JVM, started with this JVM's class path, a settings file and optionally a JFR
 * recording. Its CPU time is read from {@code /proc}, its live heap through {@code jcmd} (in the JDK), so that
 * figures per probe and per target belong to the worker alone.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChildJvm.class);
    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    
    private final String name;
    private final Process process;
    private final Path jitFile;
    private final JitActivity.CompilerThreads compilerThreads;

    private ChildJvm(String name, Process process, Path jitFile) {
        this.name = name;
        this.process = process;
        this.jitFile = jitFile;
        this.compilerThreads = new JitActivity.CompilerThreads(process.pid());
        // a driver that fails (e.g. its broker stops) must not leave its workers running: an orphan prober takes
        // half a core from the next run and makes its figures worthless
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }, "bench-child-reaper-" + name));
    }

    /**
     * Starts {@code WorkerMain <role> <settings file>} with {@code heap} as {@code -Xmx}/{@code -Xms}, writing its
     * output to {@code <workDir>/<name>.log} and, when {@code jfr} is not null, a recording to that file.
     */
    public static ChildJvm start(String name, String role, Map<String, String> settings, String heap, Path jfr,
                                 Path workDir) throws IOException {
        return start(name, role, settings, heap, jfr, workDir, List.of());
    }

    /** As {@link #start(String, String, Map, String, Path, Path)}, with more JVM options before the main class. */
    public static ChildJvm start(String name, String role, Map<String, String> settings, String heap, Path jfr,
                                 Path workDir, List<String> jvmOptions) throws IOException {
        Files.createDirectories(workDir);
        Path file = workDir.resolve(name + ".properties");
        Properties props = new Properties();
        props.putAll(settings);
        try (var out = Files.newBufferedWriter(file)) {
            props.store(out, "healthmesh benchmark: " + name);
        }
        List<String> command = new ArrayList<>(List.of(JAVA.toString(), "-Xms" + heap, "-Xmx" + heap,
                "-XX:+UseG1GC", "-Dlog4j2.level=WARN"));
        Path jitFile = workDir.resolve(name + ".jit");
        Files.deleteIfExists(jitFile);
        command.add("-D" + JitActivity.FILE_PROPERTY + "=" + jitFile.toAbsolutePath());
        if (jfr != null) {
            command.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile,dumponexit=true");
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), WorkerMain.class.getName(), role,
                file.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve(name + ".log").toFile()).start();
        LOG.info("{} started as pid {}", name, process.pid());
        return new ChildJvm(name, process, jitFile);
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** User plus system CPU time of the worker so far. */
    public long cpuNanos() {
        return ProcessCpu.cpuNanos(process.pid());
    }

    /**
     * Milliseconds the worker's JIT compilers have spent compiling so far (its {@code CompilationMXBean}, written
     * by {@link WorkerMain} every {@value JitActivity#WRITE_PERIOD_MS} ms), or -1 before the first write.
     */
    public long compilationMillis() {
        return JitActivity.read(jitFile);
    }

    /**
     * CPU milliseconds the worker's JIT compiler threads have used so far (from {@code /proc}, see
     * {@link JitActivity.CompilerThreads}), or -1 when they cannot be read.
     */
    public long compilerCpuMillis() {
        return compilerThreads.cpuMillis();
    }

    /** System (kernel) CPU time of the worker so far. */
    public long systemNanos() {
        return ProcessCpu.systemNanos(process.pid());
    }

    /**
     * Live heap in bytes: the total of {@code jcmd GC.class_histogram}, which runs a full collection and counts what
     * survived in the same step (a separate GC then read would count what a busy worker allocated in between).
     */
    public long heapUsedAfterGc() throws IOException, InterruptedException {
        return parseHistogramTotal(run(List.of(JCMD.toString(), Long.toString(pid()), "GC.class_histogram")));
    }

    /** The total live bytes of a {@code jcmd GC.class_histogram} answer. */
    public static long parseHistogramTotal(String histogram) {
        return histogram.lines().map(String::trim).filter(l -> l.startsWith("Total")).findFirst()
                .map(l -> Long.parseLong(l.split("\\s+")[2]))
                .orElseThrow(() -> new IllegalArgumentException("class histogram without a Total line"));
    }

    /** The {@code top} classes with the most live bytes ({@code jcmd GC.class_histogram}, which collects first). */
    public String classHistogram(int top) throws IOException, InterruptedException {
        String out = run(List.of(JCMD.toString(), Long.toString(pid()), "GC.class_histogram"));
        return out.lines().filter(l -> !l.isBlank()).skip(1).limit(top + 2L)
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** The last lines of the worker's log, for error messages. */
    public static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Stops the worker with SIGTERM (its shutdown hook closes it cleanly and JFR dumps), then kills it after 20 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                LOG.warn("{} did not stop within 20 s; killing it", name);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
