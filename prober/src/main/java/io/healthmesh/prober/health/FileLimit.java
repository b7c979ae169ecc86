package io.healthmesh.prober.health;

import com.sun.management.UnixOperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;
import java.util.Optional;

/**
 * The prober's open-file limit against {@code max.in.flight}: every probe in flight holds a socket, so a limit below
 * the bound plus what the prober itself keeps open turns the probes past it into {@code INCONCLUSIVE} results (no
 * socket: the prober's trouble, never the target's) before the bound is reached. Checked once at start, with a
 * warning that says what to raise. The JVM raises its soft limit to the hard one when it starts, so the hard limit
 * is the one that counts.
 */
public final class FileLimit {

    /**
     * Files the prober keeps open besides its probes' sockets: the Kafka clients' connections, each event loop's
     * epoll and wake-up descriptors, the ops server's connections, the ICMP and DNS sockets, the JVM's own jars and
     * libraries: about 40 at rest in the load harness (one jar; a classpath of many jars opens one each), with room
     * to spare.
     */
    public static final int RESERVED = 256;

    private FileLimit() {
    }

    /**
     * The warning for {@code maxInFlight} probes under a limit of {@code maxFiles} open files, if the limit is too
     * low; nothing when it suffices or is unknown (negative).
     */
    public static Optional<String> check(int maxInFlight, long maxFiles) {
        long needed = (long) maxInFlight + RESERVED;
        if (maxFiles < 0 || maxFiles >= needed) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "max.in.flight is %d but this process may open at most %d "
                        + "files, %d of them kept for the prober's own use: probes past about %d in flight will find "
                        + "no socket and be INCONCLUSIVE (too many open files). Raise the hard open-files limit to "
                        + "at least %d (ulimit -Hn, systemd LimitNOFILE, docker run --ulimit nofile, the container "
                        + "runtime's default) or lower max.in.flight", maxInFlight, maxFiles, RESERVED,
                Math.max(0, maxFiles - RESERVED), needed));
    }

    /** This process's open-file limit, or -1 where the platform does not say. */
    public static long ofThisProcess() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }
}
