package io.healthmesh.bench.soak;

import io.healthmesh.bench.run.ChildJvm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reads one role's process from outside it: RSS and threads from {@code /proc/<pid>/status}, descriptors by listing
 * {@code /proc/<pid>/fd} (RocksDB's files left out), and the live heap through {@code jcmd GC.class_histogram} (the
 * JDK's own tool, which runs a full collection and counts what survived in one step). Nothing is added to the
 * process: no agent, no JMX port.
 *
 * <p>Descriptors are counted twice. <em>Open</em> is every descriptor at the moment of the listing; it includes a
 * socket per probe in flight (at 1,000 probes a second, from about 180 to over 1,100 between two listings of the same
 * prober). <em>Held</em> is those that were also open, to the same file or socket, at the previous listing of the
 * same process: no probe lives that long (a probe's timeout is shorter than the time between samples), so what a
 * process leaks shows there and what it merely has in flight does not. One instance follows one role: a new pid
 * starts its count again.
 *
 * <p>The {@code /proc} files are read before {@code jcmd}: its full collection stops the process, the probes due
 * meanwhile start together when it resumes, and a listing taken right after it counted that burst.
 */
final class ProcessFacts {

    private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    private static final double MIB = 1024.0 * 1024.0;
    /** How long one {@code jcmd} may take before its reading counts as unknown. */
    private static final long JCMD_TIMEOUT_S = 30;

    private long lastPid = Long.MIN_VALUE;
    private Set<String> lastListing = Set.of();

    /** The facts of {@code pid}; what cannot be read is negative ({@link RoleFacts#unknown}). */
    synchronized RoleFacts read(long pid) {
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
            held(pid, null);
            return RoleFacts.unknown(pid);
        }
        Set<String> listing = listing(proc);
        int open = listing == null ? -1 : listing.size();
        int held = held(pid, listing);
        return new RoleFacts(pid, heapAfterGcMib(pid), rss, threads, held, open);
    }

    /**
     * The descriptors of {@code listing} that the previous listing of the same pid also had; -1 for the first listing
     * of a pid (nothing to compare with) or an unreadable one.
     */
    private int held(long pid, Set<String> listing) {
        boolean samePid = pid == lastPid;
        Set<String> previous = lastListing;
        lastPid = pid;
        lastListing = listing == null ? Set.of() : listing;
        if (!samePid || listing == null) {
            return -1;
        }
        return heldCount(previous, listing);
    }

    /** How many entries of {@code now} were also in {@code before}. */
    static int heldCount(Set<String> before, Set<String> now) {
        int held = 0;
        for (String entry : now) {
            if (before.contains(entry)) {
                held++;
            }
        }
        return held;
    }

    /**
     * Every open descriptor other than RocksDB's files, as {@code <fd>=<target>} (a socket's target names its inode,
     * so a reused descriptor number with a new socket is a new entry); null when the directory cannot be read. The
     * aggregator's stores open one file per SST file, and how many there are follows flushes (every clean close and
     * restore adds some) and compaction, not what the process leaks.
     */
    private static Set<String> listing(Path proc) {
        Set<String> entries = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                String target = target(fd);
                if (!isStoreFile(target)) {
                    entries.add(fd.getFileName() + "=" + target);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return entries;
    }

    private static String target(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString();
        } catch (IOException e) {
            return "closed"; // closed since the listing: counted, as it was open then
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
