package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.schema.GroupPolicy;
import org.apache.kafka.common.serialization.Deserializer;

import static java.util.Objects.requireNonNull;

/**
 * Turns a record of the {@code groups} topic into the {@link PanicThreshold} it sets, or a {@link Rejection}: bounded
 * in size before decoding, decoded through the registry, checked by {@link GroupPolicies}. A tombstone is
 * {@link PanicThreshold#NONE} (the policy is deleted). Public so that replay reads the policies as the aggregator does.
 */
public final class GroupPolicyDecoder {

    private final Deserializer<GroupPolicy> policies;

    public GroupPolicyDecoder(Deserializer<GroupPolicy> policies) {
        this.policies = requireNonNull(policies, "policies");
    }

    /** The threshold the record keyed {@code key} sets; only an unreachable registry escapes, as an exception. */
    public Decoded<PanicThreshold> threshold(String topic, String key, byte[] value) {
        if (value == null) {
            try {
                GroupPolicies.checkGroupId(key);
            } catch (IllegalArgumentException e) {
                return Decoded.rejected(Rejection.INVALID_GROUP_POLICY, e.getMessage());
            }
            return Decoded.ok(PanicThreshold.NONE);
        }
        if (value.length > GroupPolicies.MAX_POLICY_BYTES) {
            return Decoded.rejected(Rejection.INVALID_GROUP_POLICY, "policy: " + value.length
                    + " bytes (expected: at most " + GroupPolicies.MAX_POLICY_BYTES + ")");
        }
        Decoded<GroupPolicy> decoded = InputDecoder.decode(policies, topic, value);
        if (decoded.isRejected()) {
            return Decoded.rejected(decoded.rejection().reason(), decoded.rejection().detail());
        }
        try {
            return Decoded.ok(GroupPolicies.threshold(key, decoded.value()));
        } catch (IllegalArgumentException e) {
            return Decoded.rejected(Rejection.INVALID_GROUP_POLICY, e.getMessage());
        }
    }
}
