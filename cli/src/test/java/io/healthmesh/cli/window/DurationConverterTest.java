package io.healthmesh.cli.window;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationConverterTest {

    @Test
    void readsHumanUnitsAndIso() {
        assertThat(DurationConverter.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(DurationConverter.parse("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(DurationConverter.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(DurationConverter.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(DurationConverter.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(DurationConverter.parse("PT3S")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void refusesBareNumbersAndFractionsOfAMillisecond() {
        assertThatThrownBy(() -> DurationConverter.parse("5")).isInstanceOf(CommandLine.TypeConversionException.class);
        assertThatThrownBy(() -> DurationConverter.parse("1.0005s"))
                .hasMessage("'1.0005s' (expected: whole milliseconds, e.g. 1.5s or 250ms)");
        assertThatThrownBy(() -> DurationConverter.parse("soon"))
                .hasMessage("'soon' (expected: a duration such as 500ms, 2s, 1.5s, 5m)");
    }
}
