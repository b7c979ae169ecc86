package io.healthmesh.contract.serde;

import io.healthmesh.contract.registry.RegistryClients;
import io.healthmesh.contract.registry.SchemaRegistryClient;
import io.healthmesh.schema.GroupHealth;
import org.apache.avro.Schema;
import org.apache.avro.io.ResolvingDecoder;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads a {@link GroupHealth} in Confluent's wire format without its routable list: the group id, the fail-open
 * flag and the counts, which say how many members are routed to ({@link GroupRouting#routable()}). For a status page,
 * which shows that number and not the ids: a group event carries up to {@code group.routable.max} ids (1,000 by
 * default), and decoding them into strings was most of what the aggregator's status feed spent on group events.
 * Checks and errors are those of {@link AvroSerde}'s deserializer ({@link FieldsDeserializer}); the list is walked
 * by the bounded pass like every other byte and skipped. Thread-safe.
 */
public final class GroupRoutingDeserializer extends FieldsDeserializer<GroupRouting, GroupRoutingDeserializer.Direct> {

    /** The reader schema: {@link GroupHealth}'s fields that make a {@link GroupRouting}. */
    static final Schema PROJECTION = projection(GroupHealth.getClassSchema(),
            List.of("groupId", "failOpen", "members", "healthy", "disabled", "failOpenReason"));
    private static final int GROUP_ID = PROJECTION.getField("groupId").pos();
    private static final int FAIL_OPEN = PROJECTION.getField("failOpen").pos();
    private static final int MEMBERS = PROJECTION.getField("members").pos();
    private static final int HEALTHY = PROJECTION.getField("healthy").pos();
    private static final int DISABLED = PROJECTION.getField("disabled").pos();
    private static final int REASON = PROJECTION.getField("failOpenReason").pos();

    /** Where the fields are among one writer's ({@code failOpenReason} -1 when the writer has none). */
    record Direct(int groupId, int failOpen, int members, int healthy, int disabled, int failOpenReason) {
    }

    GroupRoutingDeserializer(SchemaRegistryClient client, boolean ownsClient) {
        super(GroupHealth.getClassSchema(), PROJECTION, client, ownsClient);
    }

    /** A deserializer with its own registry client, configured with Confluent's keys like {@link AvroSerde}. */
    public static GroupRoutingDeserializer fromConfig(Map<String, ?> serdeConfig) {
        return new GroupRoutingDeserializer(RegistryClients.fromConfig(requireNonNull(serdeConfig, "serdeConfig")), true);
    }

    @Override
    Direct direct(Schema writer) {
        Schema.Field groupId = writer.getField("groupId");
        Schema.Field failOpen = writer.getField("failOpen");
        Schema.Field members = writer.getField("members");
        Schema.Field healthy = writer.getField("healthy");
        Schema.Field disabled = writer.getField("disabled");
        Schema.Field reason = writer.getField("failOpenReason");
        if (reason != null && !isNullOrString(reason.schema())) {
            return null; // another shape: the resolving decoder reads it
        }
        // a compatible writer has them all (the reader has no defaults for them); ints only (a long does not read as int)
        if (is(groupId, Schema.Type.STRING) && is(failOpen, Schema.Type.BOOLEAN) && is(members, Schema.Type.INT)
                && is(healthy, Schema.Type.INT) && is(disabled, Schema.Type.INT)) {
            return new Direct(groupId.pos(), failOpen.pos(), members.pos(), healthy.pos(), disabled.pos(),
                    reason == null ? -1 : reason.pos());
        }
        return null;
    }

    @Override
    GroupRouting readDirect(Direct plan, Schema writer, byte[] bytes, int[] starts) {
        return new GroupRouting(string(bytes, starts[plan.groupId()]), bool(bytes, starts[plan.failOpen()]),
                (int) varint(bytes, starts[plan.members()]), (int) varint(bytes, starts[plan.healthy()]),
                (int) varint(bytes, starts[plan.disabled()]), reason(plan, bytes, starts));
    }

    /** The reason of a {@code ["null", "string"]} field: its branch index (0 or 1, one byte) then the string. */
    private static String reason(Direct plan, byte[] bytes, int[] starts) {
        if (plan.failOpenReason() < 0) {
            return null;
        }
        int at = starts[plan.failOpenReason()];
        return varint(bytes, at) == 0 ? null : string(bytes, at + 1);
    }

    private static boolean isNullOrString(Schema s) {
        return s.getType() == Schema.Type.UNION && s.getTypes().size() == 2
                && s.getTypes().get(0).getType() == Schema.Type.NULL
                && s.getTypes().get(1).getType() == Schema.Type.STRING;
    }

    @Override
    GroupRouting readResolved(ResolvingDecoder in) throws IOException {
        String groupId = null;
        boolean failOpen = false;
        int members = 0;
        int healthy = 0;
        int disabled = 0;
        String reason = null;
        for (Schema.Field field : in.readFieldOrder()) {
            int pos = field.pos();
            if (pos == GROUP_ID) {
                groupId = in.readString();
            } else if (pos == FAIL_OPEN) {
                failOpen = in.readBoolean();
            } else if (pos == MEMBERS) {
                members = in.readInt();
            } else if (pos == HEALTHY) {
                healthy = in.readInt();
            } else if (pos == DISABLED) {
                disabled = in.readInt();
            } else if (pos == REASON) {
                if (in.readIndex() == 1) {
                    reason = in.readString();
                } else {
                    in.readNull();
                }
            }
        }
        return new GroupRouting(groupId, failOpen, members, healthy, disabled, reason);
    }
}
