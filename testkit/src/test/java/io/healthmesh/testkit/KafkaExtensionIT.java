package io.healthmesh.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.healthmesh.testkit.TopicReads.KeyValue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

@ExtendWith(KafkaExtension.class)
class KafkaExtensionIT {

    private static final long TIMEOUT_S = 30;
    private static TestKafka fromBeforeAll;

    @BeforeAll
    static void rememberTheLifecycleParameter(TestKafka kafka) {
        fromBeforeAll = kafka;
    }

    @Test
    void injectedParameterReachesARealBroker(TestKafka kafka) {
        String topic = kafka.uniqueTopic("round-trip");
        kafka.createTopic(topic, 3, false);
        List<KeyValue> sent = List.of(new KeyValue("t1", "up"), new KeyValue("t2", "down"), new KeyValue("t3", "up"));

        TopicReads.produce(kafka.bootstrapServers(), topic, sent);

        assertThat(TopicReads.readAll(kafka.bootstrapServers(), topic)).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(kafka).isSameAs(fromBeforeAll);
    }

    @Test
    void registryAnswersAtTheUrlTheSerdeConfigNames(TestKafka kafka) throws Exception {
        assertThat(kafka.serdeConfig()).containsExactly(Map.entry("schema.registry.url", kafka.schemaRegistryUrl()));

        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(kafka.schemaRegistryUrl() + "/subjects"))
                        .timeout(Duration.ofSeconds(TIMEOUT_S)).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("[");
    }

    @Test
    void createsCompactedAndDeletingTopics(TestKafka kafka) throws Exception {
        String compacted = kafka.uniqueTopic("health-state");
        String deleting = kafka.uniqueTopic("probe-results");
        kafka.createTopic(compacted, 6, true);
        kafka.createTopic(deleting, 2, false);

        try (Admin admin = kafka.admin()) {
            assertThat(cleanupPolicy(admin, compacted)).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
            assertThat(cleanupPolicy(admin, deleting)).isEqualTo(TopicConfig.CLEANUP_POLICY_DELETE);
            assertThat(admin.describeTopics(List.of(compacted)).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS)
                    .get(compacted).partitions()).hasSize(6);
        }
    }

    @Test
    void refusesToCreateATopicTwice(TestKafka kafka) {
        String topic = kafka.uniqueTopic("twice");
        kafka.createTopic(topic, 1, false);

        assertThatThrownBy(() -> kafka.createTopic(topic, 1, false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("topic " + topic + " exists already (uniqueTopic(base) gives a fresh name)");
    }

    /**
     * Runs two test classes in a run of their own (a nested JUnit launcher): both must get the same broker, and the
     * broker must be gone once that run ends.
     */
    @Test
    void twoTestClassesOfARunShareOneBrokerThatStopsWithTheRun() throws Exception {
        SEEN.clear();
        int startedBefore = TestEnvironment.started();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(FirstClassOfARun.class), selectClass(SecondClassOfARun.class))
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();

        LauncherFactory.create().execute(request, listener);

        TestExecutionSummary summary = listener.getSummary();
        assertThat(summary.getFailures()).isEmpty();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
        assertThat(TestEnvironment.started() - startedBefore).isEqualTo(1);
        assertThat(SEEN).hasSize(2);
        assertThat(SEEN.get(0)).isSameAs(SEEN.get(1));
        assertThat(isListening(SEEN.get(0).bootstrapServers())).as("broker of the finished run still listening").isFalse();
    }

    static final List<TestKafka> SEEN = new CopyOnWriteArrayList<>();

    /** Only run by the nested launcher above (nested classes are not picked up by Failsafe). */
    @ExtendWith(KafkaExtension.class)
    static class FirstClassOfARun {
        @Test
        void seesABroker(TestKafka kafka) {
            String topic = kafka.uniqueTopic("first");
            kafka.createTopic(topic, 1, false);
            SEEN.add(kafka);
        }
    }

    /** Only run by the nested launcher above. */
    @ExtendWith(KafkaExtension.class)
    static class SecondClassOfARun {
        @Test
        void seesABroker(TestKafka kafka) {
            String topic = kafka.uniqueTopic("second");
            kafka.createTopic(topic, 1, false);
            SEEN.add(kafka);
        }
    }

    private static String cleanupPolicy(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS).get(resource);
        return config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
    }

    private static boolean isListening(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        try (Socket socket = new Socket()) {
            socket.connect(address, 5_000);
            return true;
        } catch (ConnectException e) {
            return false;
        }
    }
}
