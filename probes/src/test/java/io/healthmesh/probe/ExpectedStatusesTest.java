package io.healthmesh.probe;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpectedStatusesTest {

    @Test
    void classesAndCodes() {
        ExpectedStatuses statuses = ExpectedStatuses.parse(List.of("2XX", " 301 ", "404"));
        assertThat(statuses.matches(200)).isTrue();
        assertThat(statuses.matches(299)).isTrue();
        assertThat(statuses.matches(301)).isTrue();
        assertThat(statuses.matches(302)).isFalse();
        assertThat(statuses.matches(404)).isTrue();
        assertThat(statuses.matches(500)).isFalse();
        assertThat(statuses.matches(99)).isFalse();
        assertThat(statuses.matches(600)).isFalse();
    }

    @Test
    void anEmptyListMeans2xx() {
        assertThat(ExpectedStatuses.parse(List.of()).matches(204)).isTrue();
        assertThat(ExpectedStatuses.parse(null).matches(302)).isFalse();
    }

    @Test
    void aListIsParsedOnceAndKeptApartFromTheCallersCopy() {
        List<String> entries = new ArrayList<>(List.of("418", "5xx"));
        ExpectedStatuses first = ExpectedStatuses.parse(entries);
        assertThat(ExpectedStatuses.parse(List.of("418", "5xx"))).isSameAs(first);
        entries.set(0, "200"); // the caller's list changes; what was parsed for the old content must not
        ExpectedStatuses changed = ExpectedStatuses.parse(entries);
        assertThat(changed).isNotSameAs(first);
        assertThat(changed.matches(200)).isTrue();
        assertThat(changed.matches(418)).isFalse();
        assertThat(ExpectedStatuses.parse(List.of("418", "5xx")).matches(418)).isTrue();
    }

    @Test
    void aBadEntryIsRefusedEveryTime() {
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> ExpectedStatuses.parse(List.of("200", "2x")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'2x'");
        }
    }
}
