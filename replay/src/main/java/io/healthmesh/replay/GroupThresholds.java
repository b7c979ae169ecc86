package io.healthmesh.replay;

import io.healthmesh.core.health.PanicThreshold;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The panic thresholds of a replay's two runs. The run as configured uses each group's policy as recorded on the
 * {@code groups} topic (the one in force at the end of the range); the alternative run uses {@code override} for every
 * group when one is given ({@code replay --panic}), else the recorded ones too.
 *
 * @param recorded the recorded policies by group id (groups without one are absent)
 * @param override the what-if threshold for every group, or {@code null}
 */
public record GroupThresholds(Map<String, PanicThreshold> recorded, PanicThreshold override) {

    /** No policy recorded, no override: every group fails open only without a routable member. */
    public static final GroupThresholds NONE = new GroupThresholds(Map.of(), null);

    public GroupThresholds {
        recorded = Map.copyOf(requireNonNull(recorded, "recorded"));
    }

    /** The threshold of {@code group} in the run as configured. */
    public PanicThreshold configured(String group) {
        return recorded.getOrDefault(group, PanicThreshold.NONE);
    }

    /** The threshold of {@code group} in the alternative run. */
    public PanicThreshold alternative(String group) {
        return override != null ? override : configured(group);
    }
}
