package io.healthmesh.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import kafka.server.KafkaConfig;

import org.apache.kafka.server.config.AbstractKafkaConfig;
import org.junit.jupiter.api.Test;

class BrokerPropertiesTest {

    private static final Path DIR = Path.of("/tmp/healthmesh-kafka-test");

    @Test
    void everyKeyIsABrokerSettingAndKafkaAcceptsTheValues() {
        Properties props = BrokerProperties.of("127.0.0.1", 9092, 9093, DIR, Map.of());

        assertThat(AbstractKafkaConfig.CONFIG_DEF.names()).containsAll(props.stringPropertyNames());
        KafkaConfig config = new KafkaConfig(props, false);
        assertThat(config.nodeId()).isEqualTo(BrokerProperties.NODE_ID);
        assertThat(config.logDirs()).containsExactly(DIR.toString());
    }

    @Test
    void combinedNodeWithItsOwnControllerQuorum() {
        Properties props = BrokerProperties.of("127.0.0.1", 9092, 9093, DIR, Map.of());

        assertThat(props.getProperty("process.roles")).isEqualTo("broker,controller");
        assertThat(props.getProperty("controller.quorum.voters")).isEqualTo("1@127.0.0.1:9093");
        assertThat(props.getProperty("listeners")).isEqualTo("PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093");
        assertThat(props.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:9092");
    }

    @Test
    void aNodeOfAClusterReplicatesEverythingToEveryNodeAndKafkaAcceptsIt() {
        Properties props = BrokerProperties.node(2, "1@127.0.0.1:9101,2@127.0.0.1:9103,3@127.0.0.1:9105", 3,
                "127.0.0.1", 9102, 9103, DIR, Map.of());

        KafkaConfig config = new KafkaConfig(props, false);
        assertThat(config.nodeId()).isEqualTo(2);
        assertThat(props.getProperty("controller.quorum.voters"))
                .isEqualTo("1@127.0.0.1:9101,2@127.0.0.1:9103,3@127.0.0.1:9105");
        assertThat(props.getProperty("default.replication.factor")).isEqualTo("3");
        assertThat(props.getProperty("offsets.topic.replication.factor")).isEqualTo("3");
        assertThat(props.getProperty("transaction.state.log.replication.factor")).isEqualTo("3");
        assertThat(props.getProperty("min.insync.replicas")).isEqualTo("2");
        assertThat(props.getProperty("transaction.state.log.min.isr")).isEqualTo("2");
        assertThat(props.getProperty("listeners")).isEqualTo("PLAINTEXT://127.0.0.1:9102,CONTROLLER://127.0.0.1:9103");
    }

    @Test
    void theSingleNodeKeepsOneReplicaEverywhere() {
        Properties props = BrokerProperties.of("127.0.0.1", 9092, 9093, DIR, Map.of());

        assertThat(props.getProperty("default.replication.factor")).isEqualTo("1");
        assertThat(props.getProperty("min.insync.replicas")).isEqualTo("1");
        assertThat(props.getProperty("transaction.state.log.min.isr")).isEqualTo("1");
        assertThatThrownBy(() -> BrokerProperties.node(1, "1@127.0.0.1:9093", 0, "127.0.0.1", 9092, 9093, DIR,
                Map.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicas: 0");
    }

    @Test
    void aSecuredListenerIsAddedNextToPlaintext() {
        Properties props = BrokerProperties.of("127.0.0.1", 9092, 9093, DIR, Map.of());
        BrokerProperties.addListener(props, "SECURE", "SASL_SSL", "127.0.0.1", 9094);

        assertThat(props.getProperty("listeners"))
                .isEqualTo("PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,SECURE://127.0.0.1:9094");
        assertThat(props.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:9092,SECURE://127.0.0.1:9094");
        assertThat(props.getProperty("listener.security.protocol.map"))
                .isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SECURE:SASL_SSL");
        assertThat(props.getProperty("inter.broker.listener.name")).isEqualTo("PLAINTEXT");
    }

    @Test
    void internalTopicsFitOneNode() {
        Properties props = BrokerProperties.of("127.0.0.1", 9092, 9093, DIR, Map.of());

        assertThat(props).containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0")
                .containsEntry("log.cleaner.enable", "true");
        assertThat(Long.parseLong(props.getProperty("log.cleaner.dedupe.buffer.size"))).isLessThanOrEqualTo(16L << 20);
    }

    @Test
    void wildcardHostBindsEveryInterfaceAndAdvertisesLoopback() {
        Properties props = BrokerProperties.of("0.0.0.0", 9092, 9093, DIR, Map.of());

        assertThat(props.getProperty("listeners")).startsWith("PLAINTEXT://:9092,");
        assertThat(props.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://127.0.0.1:9092");
        assertThat(BrokerProperties.advertisedAddress("::", 9092)).isEqualTo("127.0.0.1:9092");
    }

    @Test
    void ipv6LiteralsAreBracketed() {
        Properties props = BrokerProperties.of("::1", 9092, 9093, DIR, Map.of());

        assertThat(props.getProperty("listeners")).startsWith("PLAINTEXT://[::1]:9092,");
        assertThat(BrokerProperties.advertisedAddress("::1", 9092)).isEqualTo("[::1]:9092");
        new KafkaConfig(props, false);
    }

    @Test
    void overridesWinOverDefaults() {
        Properties props = BrokerProperties.of("127.0.0.1", 9092, 9093, DIR,
                Map.of("auto.create.topics.enable", "false", "num.io.threads", "4"));

        assertThat(props).containsEntry("auto.create.topics.enable", "false").containsEntry("num.io.threads", "4");
    }

    @Test
    void rejectsPortsOutOfRangeOrShared() {
        assertThatThrownBy(() -> BrokerProperties.of("127.0.0.1", 0, 9093, DIR, Map.of()))
                .hasMessage("clientPort: 0 (expected: 1..65535)");
        assertThatThrownBy(() -> BrokerProperties.of("127.0.0.1", 9092, 70000, DIR, Map.of()))
                .hasMessage("controllerPort: 70000 (expected: 1..65535)");
        assertThatThrownBy(() -> BrokerProperties.of("127.0.0.1", 9092, 9092, DIR, Map.of()))
                .hasMessage("controllerPort: 9092 (expected: different from clientPort)");
    }
}
