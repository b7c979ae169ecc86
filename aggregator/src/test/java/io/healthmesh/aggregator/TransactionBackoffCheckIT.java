package io.healthmesh.aggregator;

import io.healthmesh.embedded.EmbeddedKafkaCluster;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up read of the brokers' partition-add backoff, on real brokers: one, and a cluster of two. */
@ExtendWith(KafkaExtension.class)
class TransactionBackoffCheckIT {

    @Test
    void aClusterOfTwoBrokersAtKafkasDefaultIsAdvisedWithEachBrokersValue() {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(2, Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            assertThat(TransactionBackoffCheck.logAdvice(admin)).hasValueSatisfying(advice -> assertThat(advice)
                    .startsWith("2 of the cluster's 2 brokers")
                    .contains(TransactionBackoffCheck.SETTING + ": 1 (20 ms), 2 (20 ms))"));
        }
    }

    @Test
    void oneBrokerSaysNothing(TestKafka kafka) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers()))) {
            assertThat(TransactionBackoffCheck.logAdvice(admin)).isEmpty();
        }
    }

    @Test
    void brokersThatCannotBeReachedLeaveTheStartAloneWithinTheBound() {
        // a bootstrap address nothing listens on: the check gives up within its bound and says nothing
        long start = System.nanoTime();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"))) {
            assertThat(TransactionBackoffCheck.logAdvice(admin)).isEmpty();
        }
        assertThat((System.nanoTime() - start) / 1_000_000)
                .isLessThan(TransactionBackoffCheck.TIMEOUT.toMillis() + 5_000);
    }
}
