package io.healthmesh.dnsfollow.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.healthmesh.dnsfollow.plan.Views.row;
import static io.healthmesh.dnsfollow.plan.Views.set;
import static org.assertj.core.api.Assertions.assertThat;

class LastNonEmptyTest {

    private final LastNonEmpty rule = new LastNonEmpty();

    private static NameTarget target(RecordSet records, boolean viewKeptLast) {
        return new NameTarget(row("api", "api.example.com."), records, true, viewKeptLast, List.of(), List.of());
    }

    @Test
    void anEmptyTargetBeforeAnyKeepsWhatTheZoneHolds() {
        LastNonEmpty.Decision d = rule.decide(target(RecordSet.EMPTY, false));

        assertThat(d.records()).isNull();
        assertThat(d.kept()).isTrue();
        assertThat(d.episodeStarted()).isTrue();
    }

    @Test
    void anEmptyTargetKeepsTheLastNonEmptySetOncePerEpisode() {
        assertThat(rule.decide(target(set("10.0.0.1", "10.0.0.2"), false)).records())
                .isEqualTo(set("10.0.0.1", "10.0.0.2"));
        assertThat(rule.decide(target(set("10.0.0.2"), false)).records()).isEqualTo(set("10.0.0.2"));

        LastNonEmpty.Decision first = rule.decide(target(RecordSet.EMPTY, false));
        LastNonEmpty.Decision again = rule.decide(target(RecordSet.EMPTY, false));

        assertThat(first.records()).isEqualTo(set("10.0.0.2"));
        assertThat(first.episodeStarted()).isTrue();
        assertThat(again.records()).isEqualTo(set("10.0.0.2"));
        assertThat(again.episodeStarted()).isFalse();
        assertThat(rule.keeping()).isEqualTo(1);

        LastNonEmpty.Decision back = rule.decide(target(set("10.0.0.3"), false));
        assertThat(back.records()).isEqualTo(set("10.0.0.3"));
        assertThat(back.kept()).isFalse();
        assertThat(back.episodeEnded()).isTrue();
        assertThat(rule.keeping()).isZero();
    }

    @Test
    void aViewThatKeptItsLastSetIsAnEpisodeToo() {
        LastNonEmpty.Decision d = rule.decide(target(set("10.0.0.1"), true));

        assertThat(d.records()).isEqualTo(set("10.0.0.1"));
        assertThat(d.kept()).isTrue();
        assertThat(d.episodeStarted()).isTrue();
        assertThat(rule.decide(target(set("10.0.0.1"), true)).episodeStarted()).isFalse();
        assertThat(rule.decide(target(set("10.0.0.1"), false)).episodeEnded()).isTrue();
    }
}
