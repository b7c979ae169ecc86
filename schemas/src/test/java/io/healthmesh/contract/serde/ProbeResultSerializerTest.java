package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.Protocol;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hand-written ProbeResult writer against Avro's generic one: the same bytes for every kind of value. */
class ProbeResultSerializerTest {

    private static final String TOPIC = "healthmesh.probe-results";
    private final String scope = "prs-" + UUID.randomUUID();
    private final Map<String, String> config = Map.of("schema.registry.url", "mem://" + scope);

    @AfterEach
    void dropScope() {
        MemoryRegistries.drop(scope);
    }

    @Test
    void theGeneratedClassCarriesTheSchemaTheWriterWasWrittenFor() {
        // fails when ProbeResult.avsc changes: bring ProbeResultSerializer's field list and LAYOUT_FINGERPRINT in line
        // (until then AvroSerde falls back to the generic writer, so nothing is written wrong)
        assertThat(ProbeResultSerializer.matchesSchema()).isTrue();
    }

    @Test
    void probeResultSerdeUsesTheOwnWriterAndOthersAndLatestVersionTheGenericOne() {
        try (AvroSerde<ProbeResult> results = AvroSerde.forValues(ProbeResult.class, config);
             AvroSerde<ProbeResult> latest = AvroSerde.forValues(ProbeResult.class,
                     Map.of("schema.registry.url", "mem://" + scope, "use.latest.version", "true"));
             var groups = AvroSerde.forValues(io.healthmesh.schema.GroupHealth.class, config)) {
            assertThat(results.serializer()).isInstanceOf(ProbeResultSerializer.class);
            assertThat(latest.serializer()).isInstanceOf(AvroSerializer.class);
            assertThat(groups.serializer()).isInstanceOf(AvroSerializer.class);
        }
    }

    @Test
    void writesTheBytesOfAvrosGenericWriterForRandomResults() {
        try (AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config)) {
            var generic = genericSerializer();
            var own = serde.serializer();
            Random random = new Random(42);
            for (int i = 0; i < 20_000; i++) {
                ProbeResult r = random(random);
                byte[] expected = generic.serialize(TOPIC, r);
                assertThat(own.serialize(TOPIC, r)).as("result %d: %s", i, r).isEqualTo(expected);
                if (!r.toString().contains("\uD800")) {   // an unpaired surrogate is written as '?', as Java's UTF-8 does
                    assertThat(serde.deserializer().deserialize(TOPIC, expected)).isEqualTo(r);
                }
            }
        }
    }

    @Test
    void aResultLongerThanTheBufferGetsALargerOneAndTheNextResultIsStillRight() {
        try (AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config)) {
            var generic = genericSerializer();
            ProbeResult big = Records.probeResult();
            big.setDetail("é".repeat(5_000));
            ProbeResult small = Records.probeResult();
            assertThat(serde.serializer().serialize(TOPIC, big)).isEqualTo(generic.serialize(TOPIC, big));
            assertThat(serde.serializer().serialize(TOPIC, small)).isEqualTo(generic.serialize(TOPIC, small));
        }
    }

    @Test
    void theWidestValuesFitTheBufferTheyAreSizedFor() {
        try (AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config)) {
            var generic = genericSerializer();
            // three UTF-8 bytes per character and ten-byte varints everywhere: the largest result per character
            for (int detailLength = 600; detailLength <= 800; detailLength += 7) {   // across the 4 KiB buffer
                ProbeResult r = new ProbeResult("監".repeat(255), Long.MIN_VALUE, "監".repeat(64), "監".repeat(255),
                        Protocol.HTTPS, Long.MIN_VALUE, ProbeOutcome.INCONCLUSIVE, Long.MIN_VALUE, Long.MIN_VALUE,
                        Long.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE, "監".repeat(detailLength), Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE);
                assertThat(serde.serializer().serialize(TOPIC, r)).isEqualTo(generic.serialize(TOPIC, r));
            }
        }
    }

    @Test
    void aMissingRequiredFieldIsASerializationErrorAndNullIsNull() {
        try (AvroSerde<ProbeResult> serde = AvroSerde.forValues(ProbeResult.class, config)) {
            ProbeResult r = Records.probeResult();
            r.setProberId(null);
            assertThatThrownBy(() -> serde.serializer().serialize(TOPIC, r))
                    .isInstanceOf(SerializationException.class).hasMessageContaining("ProbeResult");
            assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
        }
    }

    /** Avro's generic writer on the same registry scope: the reference the own writer is held to. */
    private AvroSerializer<ProbeResult> genericSerializer() {
        return new AvroSerializer<>(ProbeResult.class, RegistryClients.fromConfig(config), SerdeConfig.from(config), false);
    }

    private static ProbeResult random(Random random) {
        Protocol[] protocols = Protocol.values();
        ProbeOutcome[] outcomes = ProbeOutcome.values();
        return new ProbeResult(text(random, 1 + random.nextInt(80)), someLong(random), text(random, 1 + random.nextInt(64)),
                text(random, random.nextInt(40)), protocols[random.nextInt(protocols.length)], someLong(random),
                outcomes[random.nextInt(outcomes.length)], someLong(random),
                random.nextBoolean() ? null : someLong(random), random.nextBoolean() ? null : someLong(random),
                random.nextBoolean() ? null : someLong(random),
                random.nextBoolean() ? null : (int) someLong(random),
                random.nextBoolean() ? null : text(random, random.nextInt(220)), someLong(random),
                random.nextBoolean() ? null : someLong(random), random.nextBoolean() ? null : someLong(random));
    }

    /** Longs of every varint length and sign, the extremes included. */
    private static long someLong(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> 0;
            case 1 -> Long.MIN_VALUE + random.nextInt(3);
            case 2 -> Long.MAX_VALUE - random.nextInt(3);
            case 3 -> random.nextInt(300) - 150;
            default -> random.nextLong() >> random.nextInt(64);
        };
    }

    /** ASCII mostly; sometimes accents, CJK, an emoji (a surrogate pair) or an unpaired surrogate. */
    private static String text(Random random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(40)) {
                case 0 -> s.append('é');
                case 1 -> s.append('監');
                case 2 -> s.appendCodePoint(0x1F600);
                case 3 -> s.append('\uD800');
                case 4 -> s.append('\u007F');
                default -> s.append((char) (' ' + random.nextInt(95)));
            }
        }
        return s.toString();
    }
}
