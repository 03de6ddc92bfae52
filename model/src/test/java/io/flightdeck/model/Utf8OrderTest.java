package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Label sets sort as their UTF-8 bytes, like Prometheus's; that any two strings do is a property in
 * testkit's test tree ({@code Utf8OrderPropertiesTest}), since model cannot depend on testkit.
 */
class Utf8OrderTest {
  @Test
  void labelsSortASupplementaryCharacterAfterThePrivateUseArea() {
    assertThat(Labels.of("\uFFFF", "a", "\uD83D\uDE00", "b").names())
        .containsExactly("\uFFFF", "\uD83D\uDE00");
  }
}
