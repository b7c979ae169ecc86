package io.healthmesh.probe.icmp;

import java.util.Map;

/** Names for the errno values the pinger reports, so that details read {@code EACCES} rather than 13. */
final class Errno {

    static final int EPERM = 1;
    static final int EACCES = 13;
    static final int ENETUNREACH = 101;
    static final int EHOSTUNREACH = 113;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "EPERM"), Map.entry(4, "EINTR"), Map.entry(9, "EBADF"), Map.entry(11, "EAGAIN"),
            Map.entry(13, "EACCES"), Map.entry(22, "EINVAL"), Map.entry(24, "EMFILE"), Map.entry(90, "EMSGSIZE"),
            Map.entry(93, "EPROTONOSUPPORT"), Map.entry(97, "EAFNOSUPPORT"), Map.entry(99, "EADDRNOTAVAIL"),
            Map.entry(101, "ENETUNREACH"), Map.entry(105, "ENOBUFS"), Map.entry(113, "EHOSTUNREACH"));

    private Errno() {
    }

    static String name(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }
}
