package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Coverage;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Strings sort as their UTF-8 bytes, like Prometheus's; beside model's {@code Utf8OrderTest}, here
 * because model cannot depend on testkit, which depends on model.
 */
class Utf8OrderPropertiesTest {
  @Test
  void agreesWithUtf8ByteOrder() {
    Coverage coverage =
        Property.tries(2000)
            .check(
                in -> {
                  String a = in.draw("a", Generators.strings());
                  String b = in.draw("b", Generators.strings());
                  byte[] x = a.getBytes(StandardCharsets.UTF_8);
                  byte[] y = b.getBytes(StandardCharsets.UTF_8);
                  if (!a.equals(new String(x, StandardCharsets.UTF_8))
                      || !b.equals(new String(y, StandardCharsets.UTF_8))) {
                    return; // lone surrogates have no UTF-8 form
                  }
                  in.classify("compared");
                  assertThat(Integer.signum(Utf8Order.compare(a, b)))
                      .isEqualTo(Integer.signum(Arrays.compareUnsigned(x, y)));
                });

    // The skip above must leave most pairs to compare.
    assertThat(coverage.percentage("compared")).isGreaterThan(50);
  }
}
