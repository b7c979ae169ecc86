package io.healthmesh.notifier;

import io.healthmesh.testkit.TestKafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Settings of a notifier under test: loopback endpoint on a free port, short retries, a route file written out. */
final class NotifierSettings {

    private NotifierSettings() {
    }

    static Map<String, String> of(TestKafka kafka, StateTopics state, String groupId, Path dir, String routesYaml)
            throws IOException {
        Path routes = Files.writeString(dir.resolve(groupId + "-routes.yaml"), routesYaml);
        Map<String, String> s = new HashMap<>();
        s.put("bootstrap.servers", kafka.bootstrapServers());
        s.put("schema.registry.url", kafka.schemaRegistryUrl());
        s.put("topic.prefix", state.topics.prefix());
        s.put("group.id", groupId);
        s.put("routes.file", routes.toString());
        s.put("http.host", "127.0.0.1");
        s.put("http.port", "0");
        s.put("retry.initial.ms", "100");
        s.put("retry.max.ms", "1000");
        s.put("kafka.session.timeout.ms", "6000");
        s.put("kafka.heartbeat.interval.ms", "1000");
        return s;
    }
}
