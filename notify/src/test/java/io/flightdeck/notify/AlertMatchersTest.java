package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

class AlertMatchersTest {
  @Test
  void parsesQuotedBareAndBracedForms() {
    assertThat(AlertMatchers.parse("alertname = \"Watchdog\"").toString())
        .isEqualTo("[alertname=\"Watchdog\"]");
    assertThat(AlertMatchers.parse("severity=~warning|critical").toString())
        .isEqualTo("[severity=~\"warning|critical\"]");
    assertThat(AlertMatchers.parse("{job!=\"a,b\", rank!~\"0\"}").toString())
        .isEqualTo("[job!=\"a,b\", rank!~\"0\"]");
    assertThat(AlertMatchers.parse("msg=\"say \\\"hi\\\"\"").getFirst().value())
        .isEqualTo("say \"hi\"");
  }

  @Test
  void regexesAreAnchoredAndAbsentLabelsAreEmpty() {
    var m = AlertMatchers.parse("job=~\"ms-swift.*\", team=\"\"");
    assertThat(AlertMatchers.matchAll(m, Labels.of("job", "ms-swift-lora"))).isTrue();
    assertThat(AlertMatchers.matchAll(m, Labels.of("job", "x-ms-swift"))).isFalse();
    assertThat(AlertMatchers.matchAll(m, Labels.of("job", "ms-swift", "team", "t"))).isFalse();
  }

  @Test
  void rejectsMalformedText() {
    for (String bad : new String[] {"", "=x", "a", "a=\"x", "a=\"x\" b=\"y\"", "1a=b"}) {
      assertThatThrownBy(() -> AlertMatchers.parse(bad))
          .as(bad)
          .hasMessage("bad matcher format: \"" + bad + "\"");
    }
  }
}
