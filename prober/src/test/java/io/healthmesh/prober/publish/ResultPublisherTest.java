package io.healthmesh.prober.publish;

import io.healthmesh.core.probe.Outcome;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.probe.ProbeReport;
import io.healthmesh.prober.schedule.CompletedProbe;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The publisher against a Kafka that is not there: a real producer pointed at a closed loopback port. */
class ResultPublisherTest {

    private static CompletedProbe probe(int n) {
        TargetSpec spec = TargetSpec.of("t-" + n, "g", "127.0.0.1", 80, Protocol.HTTP);
        return new CompletedProbe(spec, 42L, 1_000L + n, 17, new ProbeReport(Outcome.UNEXPECTED_STATUS, 1_500,
                100L, null, 900L, 503, "status 503"));
    }

    @Test
    void mapsEveryFieldOfTheContract() {
        ProbeResult r = ProbeResults.toAvro(probe(1), "eu", "p-1");

        assertThat(r.getTargetId()).isEqualTo("t-1");
        assertThat(r.getGeneration()).isEqualTo(42L);
        assertThat(r.getRegion()).isEqualTo("eu");
        assertThat(r.getProberId()).isEqualTo("p-1");
        assertThat(r.getProtocol()).isEqualTo(io.healthmesh.schema.Protocol.HTTP);
        assertThat(r.getStartedAtMs()).isEqualTo(1_001L);
        assertThat(r.getOutcome()).isEqualTo(ProbeOutcome.UNEXPECTED_STATUS);
        assertThat(r.getLatencyMicros()).isEqualTo(1_500L);
        assertThat(r.getConnectMicros()).isEqualTo(100L);
        assertThat(r.getTlsMicros()).isNull();
        assertThat(r.getFirstByteMicros()).isEqualTo(900L);
        assertThat(r.getHttpStatus()).isEqualTo(503);
        assertThat(r.getDetail()).isEqualTo("status 503");
        assertThat(r.getSchedulingLagMicros()).isEqualTo(17L);
    }

    @Test
    void everyOutcomeAndProtocolMapsToItsNamesakeAndNoTwoFieldsAreSwapped() {
        for (Protocol protocol : Protocol.values()) {
            for (Outcome outcome : Outcome.values()) {
                TargetSpec spec = TargetSpec.of("t", "g", "127.0.0.1", 443, protocol);
                ProbeResult r = ProbeResults.toAvro(new CompletedProbe(spec, 1L, 2L, 3L, new ProbeReport(outcome,
                        4L, 5L, 6L, 7L, 8, "d", 0)), "r", "p");
                assertThat(r.getProtocol().name()).isEqualTo(protocol.name());
                assertThat(r.getOutcome().name()).isEqualTo(outcome.name());
                assertThat(java.util.List.of(r.getGeneration(), r.getStartedAtMs(), r.getSchedulingLagMicros(),
                        r.getLatencyMicros(), r.getConnectMicros(), r.getTlsMicros(), r.getFirstByteMicros()))
                        .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
                assertThat(r.getHttpStatus()).isEqualTo(8);
            }
        }
    }

    @Test
    void whileKafkaIsAwayOfferNeverBlocksAndTheBufferDropsTheOldest() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, Object> props = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closedPort,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "200",
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        AtomicInteger dropped = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class,
                Map.of("schema.registry.url", "mem://" + UUID.randomUUID()));
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            ResultPublisher publisher = new ResultPublisher(producer, "healthmesh.probe-results", serde.serializer(),
                    "eu", "p-1", 100, 10, dropped::incrementAndGet, failed::incrementAndGet).start();

            long start = System.nanoTime();
            for (int i = 0; i < 10_000; i++) {
                publisher.offer(probe(i));
            }
            long offerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            // 10,000 offers against a dead broker whose send blocks 200 ms: only a non-blocking offer is this fast
            assertThat(offerMillis).isLessThan(2_000);
            assertThat(publisher.buffered()).isLessThanOrEqualTo(100);
            // the publisher holds at most one batch outside the buffer while the producer refuses it
            assertThat(dropped.get()).isGreaterThanOrEqualTo(10_000 - 100 - ResultPublisher.BATCH);
            // refused sends go back to the buffer: only the buffer's drop-oldest rule loses results
            assertThat(failed.get()).isZero();

            long closeStart = System.nanoTime();
            publisher.close(Duration.ofMillis(300));
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStart)).isLessThan(5_000);
            producer.close(Duration.ZERO);
        }
    }
}
