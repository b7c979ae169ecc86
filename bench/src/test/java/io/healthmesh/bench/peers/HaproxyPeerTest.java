package io.healthmesh.bench.peers;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.core.target.Protocol;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HaproxyPeerTest {

    private static final FarmTarget TCP_0 = new FarmTarget("tcp-0", Protocol.TCP, "127.1.0.1", 4000, null);
    private static final FarmTarget TCP_1 = new FarmTarget("tcp-1", Protocol.TCP, "127.1.0.2", 4001, null);
    private static final FarmTarget TCP_2 = new FarmTarget("tcp-2", Protocol.TCP, "127.1.0.3", 4002, null);
    private static final FarmTarget HTTP_A = new FarmTarget("http-0-0", Protocol.HTTP, "127.1.0.4", 5000, "/t/0");
    private static final FarmTarget HTTP_B = new FarmTarget("http-0-1", Protocol.HTTP, "127.1.0.4", 5000, "/t/1");

    @Test
    void splitsTargetsIntoBackendsOfAtMostNServersAndHttpBackendsByPath() {
        Map<String, FarmTarget> byServer = new HashMap<>();
        String cfg = HaproxyPeer.config(List.of(TCP_0, TCP_1, TCP_2, HTTP_A, HTTP_B), 1000, 500, 3, 2, 2,
                Path.of("/run/hm/stats.sock"), byServer);

        assertThat(cfg).contains("backend tcp_0\n  mode tcp\n  default-server check inter 1000 rise 3 fall 2\n"
                + "  server s0 127.1.0.1:4000\n  server s1 127.1.0.2:4001\n");
        assertThat(cfg).contains("backend tcp_1\n  mode tcp\n  default-server check inter 1000 rise 3 fall 2\n"
                + "  server s2 127.1.0.3:4002\n");
        assertThat(cfg).contains("backend http_t_0_0\n  mode http\n  option httpchk\n"
                + "  http-check send meth HEAD uri /t/0 ver HTTP/1.1 hdr Host 127.1.0.4\n");
        assertThat(cfg).contains("backend http_t_1_0\n").contains("uri /t/1 ");
        assertThat(cfg).contains("timeout connect 500ms\n  timeout check 500ms\n");
        assertThat(cfg).doesNotContainPattern("(?m)^frontend");
        assertThat(cfg).containsOnlyOnce("stats socket /run/hm/stats.sock mode 600 level user\n");
        assertThat(byServer).containsEntry("tcp_1/s2", TCP_2).containsEntry("http_t_1_0/s0", HTTP_B).hasSize(5);
    }

    @Test
    void sumsFailedChecksOverServersOnly() {
        String csv = "# pxname,svname,qcur,chkfail,status\n"
                + "tcp_0,s0,0,3,UP\n"
                + "tcp_0,s1,0,4,DOWN\n"
                + "tcp_0,BACKEND,0,,UP\n"
                + "http_t_0_0,s0,0,0,UP\n";
        assertThat(HaproxyPeer.sumServerColumn(csv, "chkfail")).isEqualTo(7);
        assertThatThrownBy(() -> HaproxyPeer.sumServerColumn(csv, "nope"))
                .hasMessageStartingWith("show stat: no nope column");
    }

    @Test
    void refusesProtocolsHaproxyDoesNotCheckLikeHealthmesh() {
        FarmTarget udp = new FarmTarget("udp-0", Protocol.UDP, "127.1.0.9", 6000, null);
        assertThatThrownBy(() -> HaproxyPeer.config(List.of(udp), 1000, 500, 3, 3, 10,
                Path.of("/run/hm/stats.sock"), new HashMap<>()))
                .hasMessage("protocol: UDP (expected: TCP or HTTP, the checks HAProxy shares with healthmesh)");
    }
}
