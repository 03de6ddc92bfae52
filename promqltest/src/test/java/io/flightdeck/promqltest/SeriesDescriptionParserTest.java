package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SeriesDescriptionParserTest {

  private static SeriesDescription parse(String line) {
    return SeriesDescriptionParser.parse(7, line);
  }

  /** The slots as doubles, null for a gap; histograms are not expected here. */
  private static List<Double> floats(String line) {
    return parse(line).slots().stream()
        .map(slot -> slot.map(v -> ((SampleValue.Float) v).value()).orElse(null))
        .toList();
  }

  @Test
  void expandsArithmeticSequences() {
    assertThat(floats("m 1+1x3")).containsExactly(1.0, 2.0, 3.0, 4.0);
    assertThat(floats("m 0+10x10")).hasSize(11).endsWith(100.0);
    assertThat(floats("m 1-2x4")).containsExactly(1.0, -1.0, -3.0, -5.0, -7.0);
    assertThat(floats("m -2+4x3")).containsExactly(-2.0, 2.0, 6.0, 10.0);
    assertThat(floats("m 1x4")).containsExactly(1.0, 1.0, 1.0, 1.0, 1.0);
    assertThat(floats("m 1e-3+1e-3x1")).containsExactly(0.001, 0.002);
  }

  @Test
  void addsStepsRepeatedlyLikePrometheus() {
    // 0.1 + 0.1 + 0.1 is not 0.3 in binary floating point; 3 * 0.1 would hide that.
    assertThat(floats("m 0+0.1x3").get(3)).isEqualTo(0.1 + 0.1 + 0.1);
  }

  @Test
  void zeroFollowedByXIsARepetitionNotHex() {
    assertThat(floats("{} 0x2 60")).containsExactly(0.0, 0.0, 0.0, 60.0);
  }

  @Test
  void gapsAndStaleMarkers() {
    assertThat(floats("m 0 1 _ 3")).containsExactly(0.0, 1.0, null, 3.0);
    assertThat(floats("m 1 _x3 stale")).containsExactly(1.0, null, null, null, StaleMarker.VALUE);
    assertThat(StaleMarker.is(floats("m stale").get(0))).isTrue();
  }

  @Test
  void specialFloats() {
    List<Double> values = floats("m NaN Inf -Inf +Inf");
    assertThat(values.get(0)).isNaN();
    assertThat(StaleMarker.is(values.get(0))).isFalse();
    assertThat(values.subList(1, 4))
        .containsExactly(
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    // In series notation x always repeats, so 0x1f is not hex but a bad repetition count.
    assertThatThrownBy(() -> parse("m 0x1f")).hasMessageContaining("invalid repetition");
  }

  @Test
  void samplesAreSpacedByTheStep() {
    SeriesDescription s = parse("m 5 _ 7");

    assertThat(s.samples(0, 60_000))
        .containsExactly(
            new Sample(0, new SampleValue.Float(5)), new Sample(120_000, new SampleValue.Float(7)));
    assertThat(s.line()).isEqualTo(7);
  }

  @Test
  void labelSets() {
    assertThat(parse("http_requests{job=\"api\", instance='0',} 1").labels())
        .isEqualTo(Labels.of("__name__", "http_requests", "job", "api", "instance", "0"));
    assertThat(parse("{} 1").labels()).isEqualTo(Labels.EMPTY);
    assertThat(parse("{job=\"a\\\"b\"} 1").labels()).isEqualTo(Labels.of("job", "a\"b"));
    assertThat(parse("{\"my.metric\", \"some.label\"=\"v\"} 1").labels())
        .isEqualTo(Labels.of("__name__", "my.metric", "some.label", "v"));
    assertThat(parse("m").slots()).isEmpty();
  }

  @Test
  void histograms() {
    SeriesDescription s =
        parse(
            "h {{schema:1 sum:-0.3 count:3.1 z_bucket:7.1 z_bucket_w:0.05 buckets:[5.1 10 7]"
                + " offset:-3 n_buckets:[4.1 5] n_offset:-5 counter_reset_hint:gauge}} _");

    assertThat(s.hasHistograms()).isTrue();
    assertThat(s.slots()).hasSize(2);
    HistogramLiteral h = ((SampleValue.Histogram) s.slots().get(0).orElseThrow()).start();
    assertThat(h)
        .isEqualTo(
            new HistogramLiteral(
                1,
                -0.3,
                3.1,
                7.1,
                0.05,
                List.of(5.1, 10.0, 7.0),
                -3,
                List.of(4.1, 5.0),
                -5,
                List.of(),
                "gauge"));
  }

  @Test
  void histogramSequencesStaySymbolic() {
    List<Optional<SampleValue>> slots = parse("h {{count:1}}+{{count:2}}x2 {{sum:1}}x1").slots();

    assertThat(slots).hasSize(5);
    SampleValue.Histogram third = (SampleValue.Histogram) slots.get(2).orElseThrow();
    assertThat(third.steps()).isEqualTo(2);
    assertThat(third.increment().count()).isEqualTo(2.0);
    assertThat(third.subtract()).isFalse();
    assertThat(((SampleValue.Histogram) slots.get(4).orElseThrow()).start().sum()).isEqualTo(1.0);
  }

  @Test
  void rejectsMalformedLines() {
    assertThatThrownBy(() -> parse("m 1+1")).hasMessageContaining("invalid number");
    assertThatThrownBy(() -> parse("m _xy")).hasMessageContaining("invalid repetition");
    assertThatThrownBy(() -> parse("m{a=\"b\" 1")).hasMessageContaining("expected ','");
    assertThatThrownBy(() -> parse("m{a=b} 1")).hasMessageContaining("quoted label value");
    assertThatThrownBy(() -> parse("m {{schema:x}}")).hasMessageContaining("invalid integer");
    assertThatThrownBy(() -> parse("m {{color:red}}")).hasMessageContaining("unknown key color");
    assertThatThrownBy(() -> parse("m foo")).hasMessageContaining("invalid number \"foo\"");
  }
}
