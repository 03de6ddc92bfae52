package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    "1GiB, 1073741824",
    "1.5GB, 1610612736",
    "1KiB512B, 1536",
    "10MiB, 10485760",
    "1.5GB512MB, 2147483648",
    "0.5KiB3B, 515",
  })
  void parsesSizesInPowersOf1024(String text, long bytes) {
    assertThat(ByteSizeFormat.parse(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"12", "GB", "-1GB", "1 GB", "1XB", "1.GB", "1GB2"})
  void rejectsMalformedSizesNamingTheInput(String text) {
    assertThatThrownBy(() -> ByteSizeFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a valid byte size: \"" + text + "\" (use e.g. 512MB, 10GiB)");
  }

  @ParameterizedTest
  @NullAndEmptySource
  void rejectsAMissingSize(String text) {
    assertThatThrownBy(() -> ByteSizeFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not a valid byte size");
  }

  @ParameterizedTest
  @CsvSource({"1, 1B", "1024, 1KiB", "1536, 1KiB512B", "10485760, 10MiB", "1073741825, 1GiB1B"})
  void printsSizesAsPrometheusDoesAndParsesThemBack(long bytes, String text) {
    assertThat(ByteSizeFormat.format(bytes)).isEqualTo(text);
    assertThat(ByteSizeFormat.parse(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"8EB", "7EB7EB", "7EB1.5EB", "99999999999999999999B"})
  void rejectsSizesThatDoNotFitInALong(String text) {
    assertThatThrownBy(() -> ByteSizeFormat.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("byte size too large: \"" + text + "\"");
  }
}
