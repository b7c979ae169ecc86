package io.healthmesh.haproxy.runtime;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuntimeAddressTest {

    @Test
    void parsesUnixPathsHostPortsAndBracketedIpv6() {
        assertThat(RuntimeAddress.parse("/run/haproxy/admin.sock").socketAddress())
                .isEqualTo(UnixDomainSocketAddress.of(Path.of("/run/haproxy/admin.sock")));
        assertThat(RuntimeAddress.parse("127.0.0.1:9999").socketAddress())
                .isEqualTo(new InetSocketAddress("127.0.0.1", 9999));
        assertThat(RuntimeAddress.parse("lb-1.internal:9999")).isEqualTo(new RuntimeAddress(null, "lb-1.internal", 9999))
                .hasToString("lb-1.internal:9999");
        RuntimeAddress v6 = RuntimeAddress.parse("[::1]:9998");
        assertThat(v6.host()).isEqualTo("::1");
        assertThat(v6).hasToString("[::1]:9998");
    }

    @Test
    void refusesWhatIsNeither() {
        for (String bad : new String[] {"admin.sock", "host", "host:0", "host:70000", "::1:80", "/" + "a".repeat(107)}) {
            assertThatThrownBy(() -> RuntimeAddress.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(bad.substring(0, Math.min(bad.length(), 20)));
        }
    }
}
