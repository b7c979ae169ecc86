package io.healthmesh.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's TCP counters that tell whether a probe that timed out while connecting was the kernel's doing (a SYN
 * dropped because a listener's accept queue was full, then retransmitted a second later) or the prober's (the
 * handshake completed but the prober did not see it in time): {@code TcpExt ListenOverflows} and
 * {@code TCPSynRetrans} from {@code /proc/net/netstat}, machine-wide.
 */
public record KernelTcpCounters(long listenOverflows, long synRetransmits) {

    public static KernelTcpCounters read() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/net/netstat")));
        } catch (IOException | RuntimeException e) {
            return new KernelTcpCounters(-1, -1);
        }
    }

    static KernelTcpCounters parse(List<String> netstat) {
        for (int i = 0; i + 1 < netstat.size(); i += 2) {
            String[] names = netstat.get(i).split("\\s+");
            String[] values = netstat.get(i + 1).split("\\s+");
            if (!names[0].equals("TcpExt:")) {
                continue;
            }
            long overflows = -1;
            long retrans = -1;
            for (int k = 1; k < names.length && k < values.length; k++) {
                if (names[k].equals("ListenOverflows")) {
                    overflows = Long.parseLong(values[k]);
                } else if (names[k].equals("TCPSynRetrans")) {
                    retrans = Long.parseLong(values[k]);
                }
            }
            return new KernelTcpCounters(overflows, retrans);
        }
        return new KernelTcpCounters(-1, -1);
    }

    /** The counts since {@code before}. */
    public KernelTcpCounters minus(KernelTcpCounters before) {
        return new KernelTcpCounters(listenOverflows - before.listenOverflows, synRetransmits - before.synRetransmits);
    }
}
