package io.healthmesh.contract.serde;

import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;
import io.healthmesh.contract.registry.CachingRegistryClient;
import io.healthmesh.contract.registry.LocalRegistryClient;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.registry.SchemaRegistry;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroSerdeTest {

    private final String scope = "serde-" + UUID.randomUUID();
    private final Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mem://" + scope));

    @AfterEach
    void dropScope() {
        MemoryRegistries.drop(scope);
    }

    @Test
    void everyRecordTypeRoundTrips() {
        assertRoundTrip(TargetDefinition.class, Records.targetDefinition());
        assertRoundTrip(ProbeResult.class, Records.probeResult());
        assertRoundTrip(TargetHealth.class, Records.targetHealth());
        assertRoundTrip(GroupHealth.class, Records.groupHealth());
        assertThat(MemoryRegistries.scope(scope).subjects(false)).containsExactly(
                "topic-GroupHealth-value", "topic-ProbeResult-value", "topic-TargetDefinition-value", "topic-TargetHealth-value");
    }

    private <T extends SpecificRecord> void assertRoundTrip(Class<T> type, T record) {
        try (AvroSerde<T> serde = AvroSerde.forValues(type, config)) {
            String topic = "topic-" + type.getSimpleName();
            byte[] bytes = serde.serializer().serialize(topic, record);
            assertThat(serde.deserializer().deserialize(topic, bytes)).isEqualTo(record);
        }
    }

    @Test
    void nullValuesAreTombstonesBothWays() {
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, config);
        assertThat(serde.serializer().serialize("t", null)).isNull();
        assertThat(serde.deserializer().deserialize("t", null)).isNull();
    }

    @Test
    void theRegistryIsAskedOncePerSubjectAndOncePerIdNotPerRecord() {
        SchemaRegistry registry = MemoryRegistries.scope(scope);
        CountingRegistryClient producerSide = new CountingRegistryClient(new LocalRegistryClient(registry));
        CountingRegistryClient consumerSide = new CountingRegistryClient(new LocalRegistryClient(registry));
        AvroSerde<ProbeResult> producer = AvroSerde.withClient(ProbeResult.class, new CachingRegistryClient(producerSide), config);
        AvroSerde<ProbeResult> consumer = AvroSerde.withClient(ProbeResult.class, new CachingRegistryClient(consumerSide), config);
        for (int i = 0; i < 100; i++) {
            ProbeResult result = Records.probeResult();
            result.setLatencyMicros(i);
            byte[] bytes = producer.serializer().serialize("results", result);
            assertThat(consumer.deserializer().deserialize("results", bytes).getLatencyMicros()).isEqualTo(i);
        }
        assertThat(producerSide.calls).hasValue(1);
        assertThat(consumerSide.calls).hasValue(1);
    }

    @Test
    void oneSerdeServesManyThreadsAtOnce() throws Exception {
        AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config);
        int threads = 4;
        int perThread = 2_000;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    int matched = 0;
                    for (int i = 0; i < perThread; i++) {
                        ProbeResult result = Records.probeResult();
                        result.setLatencyMicros(thread * 1_000_000L + i);
                        result.setDetail("thread " + thread + " record " + i);
                        ProbeResult back = serde.deserializer().deserialize("results", serde.serializer().serialize("results", result));
                        matched += back.equals(result) ? 1 : 0;
                    }
                    return matched;
                }));
            }
            for (java.util.concurrent.Future<Integer> matched : done) {
                assertThat(matched.get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(perThread);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutAutoRegisterAnUnregisteredSchemaIsASerializationErrorNamingTheSubject() {
        config.put("auto.register.schemas", "false");
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, config);
        assertThatThrownBy(() -> serde.serializer().serialize("groups", Records.groupHealth()))
                .isInstanceOf(SerializationException.class)
                .isNotInstanceOf(RecordDecodeException.class)
                .hasMessageContaining("groups-value")
                .hasMessageContaining("40401");
        int id = MemoryRegistries.scope(scope).register("groups-value", GroupHealth.getClassSchema().toString());
        byte[] bytes = serde.serializer().serialize("groups", Records.groupHealth());
        assertThat(bytes[4]).isEqualTo((byte) id);
    }

    @Test
    void bytesWithoutTheWireHeaderAreNotAvroWireFormat() {
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, config);
        for (byte[] bad : new byte[][] {{}, {0, 0, 0, 1}, {1, 0, 0, 0, 1, 2}, "{\"json\":true}".getBytes()}) {
            assertThatThrownBy(() -> serde.deserializer().deserialize("t", bad))
                    .as(Arrays.toString(bad))
                    .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_AVRO_WIRE_FORMAT));
        }
    }

    @Test
    void anIdTheRegistryDoesNotKnowIsUnknownSchema() {
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, config);
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {0, 0, 0, 0, 77, 2}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA))
                .hasMessageContaining("77");
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {0, -1, -1, -1, -1}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA));
    }

    @Test
    void truncatedOrPaddedBodiesAreUndecodable() {
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, config);
        byte[] good = serde.serializer().serialize("t", Records.groupHealth());
        byte[] truncated = Arrays.copyOf(good, good.length - 3);
        byte[] padded = Arrays.copyOf(good, good.length + 2);
        for (byte[] bad : new byte[][] {truncated, padded}) {
            assertThatThrownBy(() -> serde.deserializer().deserialize("t", bad))
                    .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
        }
    }

    @Test
    void aHugeLengthPrefixIsUndecodableNotAnOutOfMemory() {
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, config);
        byte[] good = serde.serializer().serialize("t", Records.groupHealth());
        // header of a real id, then a string length of 2^30 with no bytes behind it
        byte[] bad = {good[0], good[1], good[2], good[3], good[4], (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08};
        serde.deserializer().deserialize("t", good);
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", bad))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
        // the claimed 1 GiB string is never allocated
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).isLessThan(16L << 20);
    }

    @Test
    void recordsWrittenWithAnUnrelatedSchemaAreUndecodable() {
        AvroSerde<ProbeResult> results = AvroSerde.forValues(ProbeResult.class, config);
        AvroSerde<GroupHealth> groups = AvroSerde.forValues(GroupHealth.class, config);
        byte[] resultBytes = results.serializer().serialize("t", Records.probeResult());
        assertThatThrownBy(() -> groups.deserializer().deserialize("t", resultBytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("GroupHealth");
    }

    @Test
    void keysUseTheKeySubject() {
        AvroSerde<GroupHealth> serde = new AvroSerde<>(GroupHealth.class);
        serde.configure(config, true);
        serde.serializer().serialize("groups", Records.groupHealth());
        assertThat(MemoryRegistries.scope(scope).subjects(false)).containsExactly("groups-key");
    }

    @Test
    void anUnconfiguredSerdeSaysSo() {
        AvroSerde<GroupHealth> serde = new AvroSerde<>(GroupHealth.class);
        assertThatThrownBy(serde::serializer).isInstanceOf(IllegalStateException.class).hasMessageContaining("not configured");
        assertThatThrownBy(serde::deserializer).isInstanceOf(IllegalStateException.class).hasMessageContaining("not configured");
    }

    @Test
    void badConfigIsRefusedWithTheKeyInTheMessage() {
        assertThatThrownBy(() -> AvroSerde.forValues(GroupHealth.class, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schema.registry.url");
        assertThatThrownBy(() -> AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "ftp://x")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schema.registry.url");
        assertThatThrownBy(() -> AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "mem://a",
                "auto.register.schemas", "maybe"))).isInstanceOf(ConfigException.class).hasMessageContaining("auto.register.schemas");
        assertThatThrownBy(() -> AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "http://127.0.0.1:1",
                "basic.auth.credentials.source", "USER_INFO"))).isInstanceOf(ConfigException.class).hasMessageContaining("basic.auth.user.info");
        assertThatThrownBy(() -> AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "http://127.0.0.1:1",
                "basic.auth.credentials.source", "SASL_INHERIT"))).isInstanceOf(ConfigException.class).hasMessageContaining("basic.auth.credentials.source");
    }

    @Test
    void anUnreachableRegistryIsASerializationErrorButNotADecodeError() {
        // port 1 on loopback: nothing listens, the connection is refused at once
        AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, Map.of("schema.registry.url", "http://127.0.0.1:1"));
        assertThatThrownBy(() -> serde.serializer().serialize("t", Records.groupHealth()))
                .isInstanceOf(SerializationException.class).hasMessageContaining("unreachable");
        assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {0, 0, 0, 0, 1, 2}))
                .isInstanceOf(SerializationException.class)
                .isNotInstanceOf(RecordDecodeException.class)
                .hasMessageContaining("127.0.0.1:1");
    }
}
