package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.LocalRegistryClient;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.serde.RecordDecodeException.Reason;
import io.healthmesh.schema.GroupHealth;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static io.healthmesh.contract.serde.WriterSchemas.encode;
import static io.healthmesh.contract.serde.WriterSchemas.generic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GroupRoutingDeserializerTest {

    private static final String TOPIC = "group-state";
    private final String scope = "routing-" + UUID.randomUUID();
    private final Map<String, Object> config = Map.of("schema.registry.url", "mem://" + scope);
    private final AvroSerde<GroupHealth> serde = AvroSerde.forValues(GroupHealth.class, config);
    private final CountingRegistryClient counting =
            new CountingRegistryClient(new LocalRegistryClient(MemoryRegistries.scope(scope)));
    private final GroupRoutingDeserializer routing = new GroupRoutingDeserializer(counting, false);

    @AfterEach
    void close() {
        routing.close();
        serde.close();
        MemoryRegistries.drop(scope);
    }

    private static GroupHealth event(String id, boolean failOpen, int healthy, int unhealthy, int disabled,
                                     List<String> routable, boolean truncated) {
        return GroupHealth.newBuilder().setGroupId(id).setFailOpen(failOpen).setMembers(healthy + unhealthy + disabled)
                .setHealthy(healthy).setUnhealthy(unhealthy).setDetecting(0).setDisabled(disabled)
                .setRoutable(routable).setRoutableTruncated(truncated).setUpdatedAtMs(1_700_000_000_000L).build();
    }

    private static GroupHealth withReason(GroupHealth event, String reason) {
        event.setFailOpenReason(reason);
        return event;
    }

    /** What the full decoder reads, as a {@link GroupRouting}. */
    private GroupRouting fully(byte[] bytes) {
        GroupHealth g = serde.deserializer().deserialize(TOPIC, bytes);
        return new GroupRouting(g.getGroupId(), g.getFailOpen(), g.getMembers(), g.getHealthy(), g.getDisabled(),
                g.getFailOpenReason());
    }

    @Test
    void readsTheIdFlagAndCountsOfEventsFromTheRealSerializerAndSaysHowManyAreRouted() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            ids.add("member-" + "é".repeat(i % 7) + i);
        }
        GroupHealth[] events = {
                event("web", false, 2, 1, 1, List.of("a", "b", "d"), false),
                event("down", true, 0, 4, 0, List.of("e", "f", "g", "h"), false),
                event("huge-ü-" + "x".repeat(300), false, 5_000, 10, 0, ids, true),
                event("", false, 0, 0, 0, List.of(), false),
                withReason(event("panic", true, 1, 3, 0, List.of("i", "j", "k", "l"), false), "BELOW_MIN_HEALTHY")};
        int[] routed = {3, 4, 5_000, 0, 4};
        for (int i = 0; i < events.length; i++) {
            byte[] bytes = serde.serializer().serialize(TOPIC, events[i]);
            GroupRouting read = routing.deserialize(TOPIC, bytes);
            assertThat(read).isEqualTo(fully(bytes));
            assertThat(read.groupId()).isEqualTo(events[i].getGroupId());
            assertThat(read.routable()).isEqualTo(routed[i]);
        }
        assertThat(routing.deserialize(TOPIC, null)).isNull();
        assertThat(counting.calls).hasValue(1);
    }

    @Test
    void aCompatibleWriterWithReorderedExtraAndMissingFieldsDecodesLikeTheFullDecoder() throws IOException {
        // reversed fields, routableTruncated absent (the reader has a default), one field the reader does not know
        Schema writer = writer(fields -> {
            fields.removeIf(f -> f.name().equals("routableTruncated") || f.name().equals("failOpenReason"));
            fields.add(new Schema.Field("zone", Schema.createArray(Schema.create(Schema.Type.STRING)), null, null));
            Collections.reverse(fields);
            return fields;
        });
        GenericRecord record = generic(writer, event("web", false, 3, 0, 2, List.of("a", "b", "c", "d", "e"), false));
        record.put("zone", List.of("x", "y"));
        byte[] bytes = encode(register("evolved-value", writer), writer, record);
        assertThat(routing.deserialize(TOPIC, bytes)).isEqualTo(new GroupRouting("web", false, 5, 3, 2))
                .isEqualTo(fully(bytes));
    }

    @Test
    void aWriterWithAUnionForAFieldIsReadThroughTheResolvingDecoder() throws IOException {
        // groupId as ["string"]: compatible, not the direct path's shape
        Schema writer = writer(fields -> fields.stream().map(f -> f.name().equals("groupId")
                ? new Schema.Field(f.name(), Schema.createUnion(Schema.create(Schema.Type.STRING)), f.doc(), f.defaultVal())
                : f).toList());
        byte[] bytes = encode(register("union-value", writer), writer,
                generic(writer, event("db", true, 0, 2, 0, List.of("p", "q"), false)));
        assertThat(routing.deserialize(TOPIC, bytes)).isEqualTo(new GroupRouting("db", true, 2, 0, 0))
                .isEqualTo(fully(bytes));
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);
        assertThatThrownBy(() -> routing.deserialize(TOPIC, truncated))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
        assertThat(routing.deserialize(TOPIC, bytes).routable()).isEqualTo(2);
    }

    @Test
    void anIncompatibleWriterIsRefusedLikeTheFullDecoderRefusesIt() throws IOException {
        // routable as a list of ints: the fields read here are fine, but the record is not a GroupHealth
        Schema writer = writer(fields -> fields.stream().map(f -> f.name().equals("routable")
                ? new Schema.Field(f.name(), Schema.createArray(Schema.create(Schema.Type.INT)), f.doc(), f.defaultVal())
                : f).toList());
        int id = register("incompatible-value", writer);
        byte[] bytes = {0, 0, 0, 0, (byte) id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assertThatThrownBy(() -> routing.deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("cannot be read as GroupHealth");
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
    }

    @Test
    void truncatedOrTrailingBytesAreUndecodableAndTheNextRecordStillDecodes() {
        byte[] bytes = serde.serializer().serialize(TOPIC, event("web", false, 2, 1, 0, List.of("a", "b"), false));
        for (int length = 6; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> routing.deserialize(TOPIC, truncated))
                    .as("%d of %d bytes", length, bytes.length)
                    .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE));
            assertThat(routing.deserialize(TOPIC, bytes).routable()).isEqualTo(2);
        }
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> routing.deserialize(TOPIC, trailing))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("trailing");
    }

    @Test
    void aHugeRoutableCountIsRefusedBeforeAnythingIsSkippedAndUnknownIdsAndHeadersAreRefusedToo() throws IOException {
        byte[] body = serde.serializer().serialize(TOPIC, event("web", false, 1, 0, 0, List.of(), false));
        // the body up to the routable list (an empty list is its end marker, 0), then a block of 2^62 ids
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // routable's 0, updatedAtMs (6 bytes here), routableTruncated, failOpenReason's and maintenance's null branches
        int listAt = body.length - 1 - 1 - 6 - 1 - 1;
        out.write(body, 0, listAt);
        out.write(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, 0x40});
        out.write(body, listAt, body.length - listAt);
        byte[] hostile = out.toByteArray();
        assertThat(routing.deserialize(TOPIC, body).groupId()).isEqualTo("web");
        assertThatThrownBy(() -> routing.deserialize(TOPIC, hostile))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNDECODABLE))
                .hasMessageContaining("items");
        assertThatThrownBy(() -> routing.deserialize(TOPIC, new byte[] {0, 0, 0, 0x7f, 0x7f, 2, 4}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA));
        assertThatThrownBy(() -> routing.deserialize(TOPIC, new byte[] {1, 0, 0, 0, 1, 2}))
                .isInstanceOfSatisfying(RecordDecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.NOT_AVRO_WIRE_FORMAT));
    }

    @Test
    void fromConfigReadsTheRegistryKeys() {
        byte[] bytes = serde.serializer().serialize(TOPIC, event("web", false, 2, 0, 0, List.of("a", "b"), false));
        try (GroupRoutingDeserializer configured = GroupRoutingDeserializer.fromConfig(config)) {
            assertThat(configured.deserialize(TOPIC, bytes).routable()).isEqualTo(2);
        }
    }

    private int register(String subject, Schema writer) {
        return MemoryRegistries.scope(scope).register(subject, writer.toString());
    }

    /** {@link GroupHealth}'s schema with its fields changed by {@code change}. */
    private static Schema writer(UnaryOperator<List<Schema.Field>> change) {
        return WriterSchemas.writer(GroupHealth.getClassSchema(), change);
    }
}
