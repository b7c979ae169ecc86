package io.healthmesh.bench.soak;

import io.healthmesh.bench.run.ChildJvm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads one process's facts from outside it: RSS and threads from {@code /proc/<pid>/status}, descriptors by listing
 * {@code /proc/<pid>/fd} (RocksDB's files left out), and the live heap through {@code jcmd GC.class_histogram} (the JDK's own tool, which runs a
 * full collection and counts what survived in one step). Nothing is added to the process: no agent, no JMX port.
 */
final class ProcessFacts {

    private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    private static final double MIB = 1024.0 * 1024.0;
    /** How long one {@code jcmd} may take before its reading counts as unknown. */
    private static final long JCMD_TIMEOUT_S = 30;

    private ProcessFacts() {
    }

    /** The facts of {@code pid}; what cannot be read is negative ({@link RoleFacts#unknown}). */
    static RoleFacts read(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        double rss = -1;
        int threads = -1;
        try {
            for (String line : Files.readAllLines(proc.resolve("status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.substring(6).replace("kB", "").trim()) / 1024.0;
                } else if (line.startsWith("Threads:")) {
                    threads = Integer.parseInt(line.substring(8).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return RoleFacts.unknown(pid);
        }
        return new RoleFacts(pid, heapAfterGcMib(pid), rss, threads, descriptors(proc));
    }

    /**
     * Open descriptors other than RocksDB's files: the aggregator's stores open one per SST file, and how many there
     * are follows flushes (every clean close and restore adds some) and compaction, not what the process leaks.
     */
    private static int descriptors(Path proc) {
        int count = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                if (!isStoreFile(fd)) {
                    count++;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return count;
    }

    private static boolean isStoreFile(Path fd) {
        try {
            return isStoreFile(Files.readSymbolicLink(fd).toString());
        } catch (IOException e) {
            return false; // closed since the listing: counted, as it was open then
        }
    }

    /** Whether a descriptor's target is a file of a RocksDB store (under a {@code rocksdb} directory). */
    static boolean isStoreFile(String target) {
        return target.contains("/rocksdb/");
    }

    private static double heapAfterGcMib(long pid) {
        try {
            Process p = new ProcessBuilder(List.of(JCMD.toString(), Long.toString(pid), "GC.class_histogram"))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(JCMD_TIMEOUT_S, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return -1;
            }
            return ChildJvm.parseHistogramTotal(out) / MIB;
        } catch (IOException | IllegalArgumentException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
