package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeFormatTest {

  @ParameterizedTest
  @CsvSource({
    "10B, 10",
    "1KB, 1024",
    "512MB, 536870912",
    "1GB, 1073741824",
    "2TB, 2199023255552",
    "1PB, 1125899906842624",
    "7EB, 8070450532247928832",
  })
  void parsesSizesInPowersOf1024(String text, long bytes) {
    assertThat(ByteSizeFormat.parse(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"12", "1.5GB", "GB", "-1GB", "1 GB", "1GiB", "1XB"})
  void rejectsMalformedSizesNamingTheInput(String text) {
    assertThatThrownBy(() -> ByteSizeFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a valid byte size: \"" + text + "\" (use e.g. 512MB, 10GB)");
  }

  @ParameterizedTest
  @NullAndEmptySource
  void rejectsAMissingSize(String text) {
    assertThatThrownBy(() -> ByteSizeFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not a valid byte size");
  }

  @Test
  void rejectsSizesThatDoNotFitInALong() {
    assertThatThrownBy(() -> ByteSizeFormat.parse("8EB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("byte size too large: \"8EB\"");
  }
}
