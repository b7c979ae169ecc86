package io.healthmesh.cli.maint;

import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.contract.maintenance.MaintenanceRecords;
import io.healthmesh.core.maintenance.MaintenanceWindow;
import io.healthmesh.schema.Maintenance;

import java.util.Collections;

/**
 * The compacted maintenance topic as the CLI sees it: every current window by id, a window written or ended (a
 * tombstone).
 */
final class MaintenanceTopic {

    private final CompactedTopic<Maintenance> topic;

    MaintenanceTopic(KafkaOptions options) {
        this.topic = new CompactedTopic<>(options, options.topics().maintenance(), Maintenance.class,
                "an aggregator");
    }

    String name() {
        return topic.name();
    }

    /** The windows the topic holds, by id, and the keys whose values could not be read as windows. */
    CompactedTopic.Contents<MaintenanceWindow> read() {
        return topic.read(MaintenanceRecords::fromAvro);
    }

    void write(MaintenanceWindow w) {
        topic.requireExists();
        topic.write(Collections.singletonMap(w.id(), MaintenanceRecords.toAvro(w)));
    }

    void end(String id) {
        topic.requireExists();
        topic.write(Collections.singletonMap(id, null));
    }
}
