package io.healthmesh.cli.roles;

import io.healthmesh.contract.Topics;
import io.healthmesh.contract.endpoints.AnnouncedEndpoint;
import io.healthmesh.contract.endpoints.EndpointAnnouncer;
import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.ops.Settings;
import io.healthmesh.ops.WorkerSettings;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Announces a started worker's listeners on the endpoints topic of each of its topic prefixes, so that every prober
 * denies them ({@link EndpointAnnouncer}), and counts the writes in the worker's metrics
 * ({@code healthmesh_endpoints_announcements_written_total}, {@code ..._failed_total}). A defence layer, not a
 * liveness dependency: an announcer that cannot start is logged and the worker runs on.
 */
final class ListenerAnnouncement {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerAnnouncement.class);

    private ListenerAnnouncement() {
    }

    /** Starts announcing for {@code worker} when it listens; what is returned withdraws the announcement. */
    static AutoCloseable start(String role, AutoCloseable worker, Map<String, String> settings) {
        if (!(worker instanceof ListeningWorker listening) || listening.topicPrefixes().isEmpty()) {
            return () -> { };
        }
        try {
            List<AnnouncedEndpoint> bound = listening.boundListeners().stream()
                    .map(l -> new AnnouncedEndpoint(l.name(), l.host(), l.port())).toList();
            Properties kafka = Settings.kafka(settings);
            kafka.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.get(WorkerSettings.BOOTSTRAP_SERVERS.key()));
            List<String> topics = listening.topicPrefixes().stream().map(p -> new Topics(p).endpoints()).toList();
            EndpointAnnouncer announcer = EndpointAnnouncer.start(kafka, topics,
                    EndpointAnnouncer.instanceId(role, bound), role, bound);
            CounterWithCallback.builder().name("healthmesh_endpoints_announcements_written")
                    .help("Announcements of this worker's listeners written to the endpoints topic.")
                    .callback(cb -> cb.call(announcer.written())).register(listening.metrics());
            CounterWithCallback.builder().name("healthmesh_endpoints_announcements_failed")
                    .help("Announcements of this worker's listeners that could not be written.")
                    .callback(cb -> cb.call(announcer.failed())).register(listening.metrics());
            return announcer;
        } catch (RuntimeException e) {
            LOG.warn("cannot announce the {}'s listeners (probers may reach them; the {} runs on): {}", role, role,
                    e.toString());
            return () -> { };
        }
    }
}
