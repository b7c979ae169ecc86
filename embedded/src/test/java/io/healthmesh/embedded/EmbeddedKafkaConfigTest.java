package io.healthmesh.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class EmbeddedKafkaConfigTest {

    @Test
    void defaultsAreATemporaryDirectoryOnLoopbackWithAFreePort() {
        EmbeddedKafkaConfig cfg = EmbeddedKafkaConfig.defaults();

        assertThat(cfg.dataDir()).isNull();
        assertThat(cfg.host()).isEqualTo("127.0.0.1");
        assertThat(cfg.port()).isZero();
    }

    @Test
    void withersChangeOneComponent() {
        EmbeddedKafkaConfig cfg = EmbeddedKafkaConfig.defaults().withDataDir(Path.of("/data")).withPort(9092).withHost("localhost");

        assertThat(cfg).isEqualTo(new EmbeddedKafkaConfig(Path.of("/data"), "localhost", 9092));
    }

    @Test
    void rejectsBadPortsAndHosts() {
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(null, "127.0.0.1", -1))
                .hasMessage("port: -1 (expected: 0..65535, 0 = a free port)");
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(null, "127.0.0.1", 65536))
                .hasMessage("port: 65536 (expected: 0..65535, 0 = a free port)");
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(null, " ", 0))
                .hasMessage("host: '' (expected: a host name or IP address)");
        assertThatThrownBy(() -> new EmbeddedKafkaConfig(null, null, 0)).isInstanceOf(NullPointerException.class);
    }
}
