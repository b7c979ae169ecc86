package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KernelTcpCountersTest {

    @Test
    void readsTheTcpExtCountersByName() {
        List<String> netstat = List.of(
                "TcpExt: SyncookiesSent ListenOverflows ListenDrops TCPSynRetrans",
                "TcpExt: 0 4231 4231 2808",
                "IpExt: InNoRoutes",
                "IpExt: 0");
        KernelTcpCounters counters = KernelTcpCounters.parse(netstat);
        assertThat(counters).isEqualTo(new KernelTcpCounters(4231, 2808));
        assertThat(counters.minus(new KernelTcpCounters(4000, 2800))).isEqualTo(new KernelTcpCounters(231, 8));
        assertThat(KernelTcpCounters.parse(List.of("IpExt: InNoRoutes", "IpExt: 0")))
                .isEqualTo(new KernelTcpCounters(-1, -1));
    }
}
