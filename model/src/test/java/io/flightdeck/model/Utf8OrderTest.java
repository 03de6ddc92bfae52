package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** Strings and label sets sort as their UTF-8 bytes, like Prometheus's. */
class Utf8OrderTest {
  @Property(tries = 2000)
  void agreesWithUtf8ByteOrder(@ForAll String a, @ForAll String b) {
    byte[] x = a.getBytes(StandardCharsets.UTF_8);
    byte[] y = b.getBytes(StandardCharsets.UTF_8);
    if (!a.equals(new String(x, StandardCharsets.UTF_8))
        || !b.equals(new String(y, StandardCharsets.UTF_8))) {
      return; // lone surrogates have no UTF-8 form
    }
    assertThat(Integer.signum(Utf8Order.compare(a, b)))
        .isEqualTo(Integer.signum(Arrays.compareUnsigned(x, y)));
  }

  @Test
  void labelsSortASupplementaryCharacterAfterThePrivateUseArea() {
    assertThat(Labels.of("\uFFFF", "a", "\uD83D\uDE00", "b").names())
        .containsExactly("\uFFFF", "\uD83D\uDE00");
  }
}
