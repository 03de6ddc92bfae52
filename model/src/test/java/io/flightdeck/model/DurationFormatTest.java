package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationFormatTest {

  @ParameterizedTest
  @CsvSource({
    "15d, 1296000000",
    "1h30m, 5400000",
    "500ms, 500",
    "1y, 31536000000",
    "2w, 1209600000",
    "0, 0",
    "0s, 0",
    "5m, 300000",
    "1s500ms, 1500",
    "1y2w3d4h5m6s7ms, 33019506007",
  })
  void parsesPrometheusDurations(String text, long millis) {
    assertThat(DurationFormat.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"30m1h", "1s1h", "1h1h", "1ms1s"})
  void rejectsUnitsOutOfDescendingOrder(String text) {
    assertThatThrownBy(() -> DurationFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a valid duration string: \"" + text + "\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1x", "10", "h", "1H", "-1s", "1.5h", "1 h", "1h ", "1hm"})
  void rejectsUnknownUnitsAndMalformedNumbers(String text) {
    assertThatThrownBy(() -> DurationFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a valid duration string: \"" + text + "\"");
  }

  @ParameterizedTest
  @NullAndEmptySource
  void rejectsAMissingDuration(String text) {
    assertThatThrownBy(() -> DurationFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("empty duration string");
  }
}
