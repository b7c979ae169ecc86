package io.healthmesh.notifier;

import io.healthmesh.contract.Topics;
import io.healthmesh.schema.HealthStatus;
import io.healthmesh.testkit.StateTopicWriter;
import io.healthmesh.testkit.TestKafka;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.List;
import java.util.Map;

/**
 * A fresh set of healthmesh topics (a unique prefix) on the test broker, written the way the notifier's tests need:
 * definitions only for their labels, and groups of two members {@code a} and {@code b}. The writing itself is
 * testkit's {@link StateTopicWriter}.
 */
final class StateTopics implements AutoCloseable {

    final Topics topics;
    private final StateTopicWriter writer;

    StateTopics(TestKafka kafka, int partitions) {
        this.writer = new StateTopicWriter(kafka, "notifier", partitions);
        this.topics = writer.topics();
    }

    RecordMetadata define(String id, String group, Map<String, String> labels) {
        return writer.define(id, group, "127.0.0.1", 1, 1, labels);
    }

    RecordMetadata state(String id, String group, HealthStatus status, long sinceMs) {
        return writer.state(id, group, status, sinceMs);
    }

    /** A group of two members, both failing when it fails open, both healthy otherwise. */
    RecordMetadata group(String id, boolean failOpen, long atMs) {
        HealthStatus each = failOpen ? HealthStatus.UNHEALTHY : HealthStatus.HEALTHY;
        return writer.group(id, failOpen, Map.of("a", each, "b", each), List.of("a", "b"), atMs);
    }

    @Override
    public void close() {
        writer.close();
    }
}
