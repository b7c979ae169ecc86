package io.healthmesh.dnsfollow;

import io.healthmesh.dnsfollow.mapping.NameMapping;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.healthmesh.dnsfollow.plan.Views.row;
import static org.assertj.core.api.Assertions.assertThat;

class ReconcileScheduleTest {

    private static final long S = 1_000_000_000L;
    private final NameMapping api = row("api", "api.example.com.");
    private final NameMapping web = row("web", "www.example.com.");
    private final List<NameMapping> names = List.of(api, web);
    private final ReconcileSchedule schedule = new ReconcileSchedule(Duration.ofSeconds(60), 0);

    private static ZoneReconciler.Outcome outcome(Set<String> inSync, Set<String> failed, Set<String> waiting) {
        return new ZoneReconciler.Outcome(inSync, failed, waiting, waiting.size());
    }

    @Test
    void everyNameAtFirstAndEveryIntervalTheChangedOnesBetween() {
        assertThat(schedule.due(names, Set.of(), 0)).containsExactly(api, web);
        schedule.done(outcome(Set.of(api.name(), web.name()), Set.of(), Set.of()), 0, 0);
        assertThat(schedule.wakeAt()).isEqualTo(60 * S);

        assertThat(schedule.due(names, Set.of("web"), 5 * S)).containsExactly(web);
        assertThat(schedule.due(names, Set.of(), 6 * S)).isEmpty();
        assertThat(schedule.due(names, Set.of(), 60 * S)).containsExactly(api, web);
        assertThat(schedule.wakeAt()).isEqualTo(120 * S);
    }

    @Test
    void aFailedNameIsRetriedWithABackoffThatDoublesAndResets() {
        schedule.due(names, Set.of(), 0);
        schedule.done(outcome(Set.of(web.name()), Set.of(api.name()), Set.of()), 0, 0);
        assertThat(schedule.wakeAt()).isEqualTo(S);
        assertThat(schedule.due(names, Set.of(), S)).containsExactly(api);

        schedule.done(outcome(Set.of(), Set.of(api.name()), Set.of()), S, 0);
        assertThat(schedule.wakeAt()).isEqualTo(3 * S);
        schedule.due(names, Set.of(), 3 * S);
        schedule.done(outcome(Set.of(), Set.of(api.name()), Set.of()), 3 * S, 0);
        assertThat(schedule.wakeAt()).isEqualTo(7 * S);

        schedule.due(names, Set.of(), 7 * S);
        schedule.done(outcome(Set.of(api.name()), Set.of(), Set.of()), 7 * S, 0);
        assertThat(schedule.wakeAt()).as("nothing to retry: the next full pass").isEqualTo(60 * S);
        schedule.due(names, Set.of("api"), 8 * S);
        schedule.done(outcome(Set.of(), Set.of(api.name()), Set.of()), 8 * S, 0);
        assertThat(schedule.wakeAt()).as("the backoff starts over").isEqualTo(9 * S);
    }

    @Test
    void namesWaitingForTheBudgetComeBackWhenItAllows() {
        schedule.due(names, Set.of(), 0);
        schedule.done(outcome(Set.of(web.name()), Set.of(), Set.of(api.name())), 0, S / 2);

        assertThat(schedule.wakeAt()).isEqualTo(S / 2);
        assertThat(schedule.due(names, Set.of(), S / 4)).isEmpty();
        assertThat(schedule.due(names, Set.of(), S / 2)).containsExactly(api);
    }
}
