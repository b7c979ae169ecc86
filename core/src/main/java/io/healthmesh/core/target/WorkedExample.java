package io.healthmesh.core.target;

/**
 * One worked example of a reference document: the parameters it states and the windows it computes. Tests run
 * each example through the real scheduler and state machine; {@code healthmesh window --profile} prints it.
 *
 * @param protocol the probe kind the example covers under its profile
 * @param responseMs how long a succeeding probe takes in the example (the healthy window depends on it)
 * @param toUnhealthyMs the document's time to turn unhealthy
 * @param toHealthyMs the document's time to turn healthy
 * @param source where the example is in the seed, e.g. {@code 003 lines 54-59}
 */
public record WorkedExample(Protocol protocol, int intervalMs, int timeoutMs, int healthyThreshold,
                            int unhealthyThreshold, int responseMs, long toUnhealthyMs, long toHealthyMs,
                            String source) {

    /** The example as a target of {@code profile} (every other field at the profile's default). */
    public TargetSpec toSpec(TargetProfile profile, String id, String address, int port) {
        return ProfileTable.of(profile).newSpec(id, TargetSpec.DEFAULT_GROUP, address, port, protocol)
                .withTiming(intervalMs, timeoutMs)
                .withThresholds(healthyThreshold, unhealthyThreshold);
    }
}
