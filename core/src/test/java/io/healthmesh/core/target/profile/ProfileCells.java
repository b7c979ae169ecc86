package io.healthmesh.core.target.profile;

import io.healthmesh.core.target.ProfileTable;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetProfile;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.core.target.Violation;

import java.util.List;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** Helpers the per-profile tests share: a target at the profile's defaults and the validator's messages. */
final class ProfileCells {

    private ProfileCells() {
    }

    static TargetSpec spec(TargetProfile profile, Protocol protocol) {
        return ProfileTable.of(profile).newSpec("t-1", "g", "10.0.0.1", 80, protocol);
    }

    static List<String> messages(TargetSpec spec) {
        return TargetValidator.validate(spec).stream().map(Violation::toString).toList();
    }

    /**
     * Walks one integer range: both ends pass, one past each end fails with exactly {@code field: v (expected:
     * range under PROFILE)}.
     */
    static void walkRange(TargetSpec base, String field, int min, int max, BiFunction<TargetSpec, Integer, TargetSpec> set) {
        String suffix = base.profile() == TargetProfile.GENERIC ? "" : " under " + base.profile();
        String range = min == max ? Integer.toString(min) : min + ".." + max;
        assertThat(messages(set.apply(base, min))).as(field + " = " + min).isEmpty();
        assertThat(messages(set.apply(base, max))).as(field + " = " + max).isEmpty();
        assertThat(messages(set.apply(base, min - 1)))
                .containsExactly(field + ": " + (min - 1) + " (expected: " + range + suffix + ")");
        assertThat(messages(set.apply(base, max + 1)))
                .containsExactly(field + ": " + (max + 1) + " (expected: " + range + suffix + ")");
    }
}
