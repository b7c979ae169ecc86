package io.healthmesh.prober.assign;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class DefinitionReaderTest {

    private static final String TOPIC = "healthmesh.targets";
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mem://" + UUID.randomUUID());
    private final AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, serdeConfig);
    private final DefinitionReader reader = new DefinitionReader(serde.deserializer());

    private static byte[] key(String id) {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] encode(TargetSpec spec) {
        return serde.serializer().serialize(TOPIC, TargetSpecs.toAvro(spec));
    }

    @Test
    void validDefinitionIsReadIntoTheDomain() {
        TargetSpec spec = TargetSpec.of("web-1", "pool", "127.0.0.1", 8080, Protocol.HTTP);

        DefinitionVerdict verdict = reader.read(TOPIC, key("web-1"), encode(spec));

        assertThat(verdict).isEqualTo(new DefinitionVerdict.Valid(spec));
    }

    @Test
    void targetsOfOneGroupAndHostShareOneCopyOfTheirNames() {
        DefinitionVerdict.Valid a = (DefinitionVerdict.Valid) reader.read(TOPIC, key("web-1"),
                encode(TargetSpec.of("web-1", "pool", "10.0.0.7", 8080, Protocol.TCP)));
        DefinitionVerdict.Valid b = (DefinitionVerdict.Valid) reader.read(TOPIC, key("web-2"),
                encode(TargetSpec.of("web-2", "pool", "10.0.0.7", 8081, Protocol.TCP)));

        assertThat(a.spec().group()).isSameAs(b.spec().group());
        assertThat(a.spec().address()).isSameAs(b.spec().address());
    }

    @Test
    void nullValueIsADeletion() {
        assertThat(reader.read(TOPIC, key("web-1"), null)).isEqualTo(new DefinitionVerdict.Deleted("web-1"));
    }

    @Test
    void bytesWithoutTheWireHeaderAreRejectedWithTheSerdesReason() {
        DefinitionVerdict verdict = reader.read(TOPIC, key("x"), "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(verdict).isInstanceOfSatisfying(DefinitionVerdict.Rejected.class, r -> {
            assertThat(r.targetId()).isEqualTo("x");
            assertThat(r.reason()).isEqualTo("NOT_AVRO_WIRE_FORMAT");
        });
    }

    @Test
    void unknownSchemaIdIsRejected() {
        byte[] value = {0, 0x7f, 0, 0, 1, 2, 3};

        assertThat(reader.read(TOPIC, key("x"), value)).isInstanceOfSatisfying(DefinitionVerdict.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo("UNKNOWN_SCHEMA"));
    }

    @Test
    void invalidDefinitionIsRejectedWithEveryViolation() {
        TargetSpec bad = TargetSpec.of("web-1", "pool", "127.0.0.1", 8080, Protocol.TCP)
                .withTiming(50, 2_000).withThresholds(0, 3);

        DefinitionVerdict verdict = reader.read(TOPIC, key("web-1"), encode(bad));

        assertThat(verdict).isInstanceOfSatisfying(DefinitionVerdict.Rejected.class, r -> {
            assertThat(r.targetId()).isEqualTo("web-1");
            assertThat(r.reason()).isEqualTo(DefinitionReader.INVALID_DEFINITION);
            assertThat(r.detail()).contains("intervalMs: 50 (expected: 100..600000)")
                    .contains("healthyThreshold: 0 (expected: 1..10)");
        });
    }

    @Test
    void idThatDiffersFromTheKeyIsRejected() {
        TargetSpec spec = TargetSpec.of("web-2", "pool", "127.0.0.1", 8080, Protocol.TCP);

        assertThat(reader.read(TOPIC, key("web-1"), encode(spec)))
                .isEqualTo(new DefinitionVerdict.Rejected("web-1", DefinitionReader.INVALID_DEFINITION,
                        "id: 'web-2' (expected: the record key 'web-1')"));
    }

    @Test
    void missingOrMalformedKeyIsRejectedWithoutATarget() {
        byte[] value = encode(TargetSpec.of("a", "g", "127.0.0.1", 80, Protocol.TCP));

        assertThat(reader.read(TOPIC, null, value)).isInstanceOfSatisfying(DefinitionVerdict.Rejected.class, r -> {
            assertThat(r.targetId()).isNull();
            assertThat(r.reason()).isEqualTo(DefinitionReader.INVALID_KEY);
        });
        assertThat(reader.read(TOPIC, new byte[]{(byte) 0xff, (byte) 0xfe}, value))
                .isInstanceOfSatisfying(DefinitionVerdict.Rejected.class,
                        r -> assertThat(r.reason()).isEqualTo(DefinitionReader.INVALID_KEY));
    }

    @Test
    void unreachableRegistryMeansRetryLaterNotRejected() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        AvroSerde<TargetDefinition> unreachable = AvroSerde.forValues(TargetDefinition.class,
                Map.of("schema.registry.url", "http://127.0.0.1:" + closedPort));
        DefinitionReader offline = new DefinitionReader(unreachable.deserializer());

        DefinitionVerdict verdict = offline.read(TOPIC, key("web-1"),
                encode(TargetSpec.of("web-1", "g", "127.0.0.1", 80, Protocol.TCP)));

        assertThat(verdict).isInstanceOf(DefinitionVerdict.RetryLater.class);
    }
}
