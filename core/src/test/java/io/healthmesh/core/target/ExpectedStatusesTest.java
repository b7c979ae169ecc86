package io.healthmesh.core.target;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpectedStatusesTest {

    @Test
    void classesAndCodes() {
        ExpectedStatuses statuses = ExpectedStatuses.parse(List.of("2XX", "301", "404"));
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
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("http.expectedStatuses: \"2x\" (expected: 1xx..5xx or a code 100..599)");
        }
    }

    @Test
    void theEntriesShowAsGivenAndAClassAbove5xxIsRefused() {
        ExpectedStatuses statuses = ExpectedStatuses.parse(List.of("2xx", "301", "4XX"));
        assertThat(statuses.matches(418)).isTrue();
        assertThat(statuses).hasToString("2xx,301,4XX");
        assertThatThrownBy(() -> ExpectedStatuses.parse(List.of("6xx")))
                .hasMessage("http.expectedStatuses: \"6xx\" (expected: 1xx..5xx or a code 100..599)");
    }

    /** What the validator and the probe both accept: nothing around or inside an entry, ASCII digits only. */
    @Test
    void entriesAreExactlyThreeCharacters() {
        assertThat(ExpectedStatuses.isEntry("200")).isTrue();
        assertThat(ExpectedStatuses.isEntry("5Xx")).isTrue();
        assertThat(ExpectedStatuses.isClass("5Xx")).isTrue();
        assertThat(ExpectedStatuses.isClass("500")).isFalse();
        String arabicIndic200 = "\u0662\u0660\u0660";
        for (String bad : new String[] {" 301 ", "099", "600", "6xx", "0xx", "2x", "2xxx", "20", arabicIndic200, "", null}) {
            assertThat(ExpectedStatuses.isEntry(bad)).as("%s", bad).isFalse();
        }
        assertThatThrownBy(() -> ExpectedStatuses.parse(List.of(" 301 ")))
                .hasMessage("http.expectedStatuses: \" 301 \" (expected: 1xx..5xx or a code 100..599)");
    }
}
