package io.healthmesh.core.maintenance;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MaintenanceRulesTest {

    private static MaintenanceWindow w(String id, MaintenanceSelector s, long start, long end, String reason) {
        return new MaintenanceWindow(id, s, MaintenanceMode.SILENCE, start, end, reason, 0, null);
    }

    @Test
    void aWellFormedWindowHasNoViolation() {
        assertThat(MaintenanceRules.violations(w("m-1", MaintenanceSelector.group("web"), 0, 60_000, "patch")))
                .isEmpty();
    }

    @Test
    void eachBoundIsNamedWithTheValueAndWhatWasExpected() {
        assertThat(MaintenanceRules.violations(w("bad id!", MaintenanceSelector.target("t"), 0, 60_000, "r")))
                .singleElement().asString().startsWith("id: \"bad id!\" (expected: 1..64");
        assertThat(MaintenanceRules.violations(w("m", MaintenanceSelector.target("t"), 0, 60_000, " ")))
                .singleElement().asString().startsWith("reason: ");
        assertThat(MaintenanceRules.violations(w("m", MaintenanceSelector.target("t"), 0, 60_000, "x".repeat(501))))
                .singleElement().asString().contains("1..500 characters");
        assertThat(MaintenanceRules.violations(w("m", MaintenanceSelector.target("t"), 0, 59_999, "r")))
                .singleElement().asString().isEqualTo("endMs - startMs: 59999 ms (expected: 60000..2592000000)");
        assertThat(MaintenanceRules.violations(w("m", MaintenanceSelector.target("t"), 0,
                Duration.ofDays(31).toMillis(), "r"))).hasSize(1);
        assertThat(MaintenanceRules.violations(w("m", new MaintenanceSelector("t", "g", Map.of()), 0, 60_000, "r")))
                .singleElement().asString().contains("exactly one of");
        assertThat(MaintenanceRules.violations(w("m", new MaintenanceSelector(null, null, Map.of()), 0, 60_000, "r")))
                .singleElement().asString().contains("0 kinds");
    }

    @Test
    void labelSelectorsAreBounded() {
        Map<String, String> many = new HashMap<>();
        for (int i = 0; i <= MaintenanceRules.MAX_LABELS; i++) {
            many.put("k" + i, "v");
        }
        assertThat(MaintenanceRules.violations(w("m", MaintenanceSelector.labels(many), 0, 60_000, "r")))
                .singleElement().asString().contains("17 labels");
        assertThat(MaintenanceRules.violations(w("m", MaintenanceSelector.labels(Map.of("a=b", "v")), 0, 60_000,
                "r"))).hasSize(1);
    }

    @Test
    void aTypedStartMayLieAheadButNotInThePastNorYearsAhead() {
        long now = 1_800_000_000_000L;
        assertThat(MaintenanceRules.startViolations(now, now)).isEmpty();
        assertThat(MaintenanceRules.startViolations(now - 59_000, now)).as("a clock a little behind").isEmpty();
        assertThat(MaintenanceRules.startViolations(now + Duration.ofDays(366).toMillis(), now)).isEmpty();
        assertThat(MaintenanceRules.startViolations(now - 61_000, now)).singleElement().asString()
                .contains("is in the past");
        assertThat(MaintenanceRules.startViolations(now + Duration.ofDays(367).toMillis(), now)).singleElement()
                .asString().contains("at most 366 days ahead");
    }

    @Test
    void aTypedLengthIsCheckedAlone() {
        assertThat(MaintenanceRules.lengthViolations(Duration.ofMinutes(30))).isEmpty();
        assertThat(MaintenanceRules.lengthViolations(Duration.ofSeconds(30))).hasSize(1);
    }
}
