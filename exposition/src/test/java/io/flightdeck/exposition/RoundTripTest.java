package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What the writer writes, the text parser reads back unchanged. */
class RoundTripTest {
  record Written(Labels labels, double value, OptionalLong timestampMs) {}

  @Test
  void writtenSamplesParseBackIdentically() {
    Property.tries(500)
        .check(
            in -> parsesBackIdentically(in.draw("samples", samples()), in.draw("help", helps())));
  }

  private static void parsesBackIdentically(List<Written> samples, String help) throws Exception {
    StringBuilder body = new StringBuilder();
    TextFormatWriter writer = new TextFormatWriter(body);
    writer.family("fam.ily", new MetricMetadata(MetricType.COUNTER, help, ""));
    for (Written sample : samples) {
      writer.sample(sample.labels(), sample.value(), sample.timestampMs());
    }
    ExpositionParser parser =
        ExpositionParser.create(
            ExpositionFormat.TEXT_0_0_4, body.toString().getBytes(StandardCharsets.UTF_8));
    for (Written expected : samples) {
      ParsedSample actual = parser.next();
      assertThat(actual).as(body.toString()).isNotNull();
      assertThat(actual.labels()).isEqualTo(expected.labels());
      assertThat(Double.compare(actual.value(), expected.value()))
          .as("%s vs %s", actual.value(), expected.value())
          .isZero();
      assertThat(actual.timestampMs()).isEqualTo(expected.timestampMs());
    }
    assertThat(parser.next()).isNull();
    assertThat(parser.metadata().get("fam.ily"))
        .isEqualTo(new MetricMetadata(MetricType.COUNTER, help, ""));
  }

  @Test
  void writesTheFormatPrometheusWrites() throws Exception {
    StringBuilder body = new StringBuilder();
    TextFormatWriter writer = new TextFormatWriter(body);
    writer.family("up", new MetricMetadata(MetricType.GAUGE, "Target\nup \\ ok", ""));
    writer.sample(Labels.of("__name__", "up", "job", "a\"b"), 1, OptionalLong.of(5));
    writer.sample(Labels.of("__name__", "up.dotted", "label.x", "v"), 0.5, OptionalLong.empty());
    writer.family("s", new MetricMetadata(MetricType.STATESET, "", ""));
    writer.sample(Labels.of("__name__", "s"), Double.NaN, OptionalLong.empty());
    assertThat(body.toString())
        .isEqualTo(
            """
            # HELP up Target\\nup \\\\ ok
            # TYPE up gauge
            up{job="a\\"b"} 1 5
            {"up.dotted","label.x"="v"} 0.5
            # TYPE s gauge
            s NaN
            """);
  }

  private static Gen<String> helps() {
    return text().filter(s -> s.isEmpty() || (s.charAt(0) != ' ' && s.charAt(0) != '\t'));
  }

  private static Gen<List<Written>> samples() {
    Gen<String> legacyName =
        Generators.strings(
            Generators.frequency(
                Generators.weighted(13, Generators.charRange('a', 'z')),
                Generators.weighted(1, Generators.charsOf("_:"))),
            1,
            8);
    Gen<String> anyName = text().filter(s -> !s.isEmpty() && !s.equals(Labels.METRIC_NAME));
    Gen<String> name = Generators.oneOf(legacyName, anyName);
    Gen<Map<String, String>> labels = Generators.mapOf(name, text(), 0, 4);
    Gen<Double> value =
        Generators.oneOf(
            Generators.doubles(),
            Generators.longs().map(Long::doubleValue),
            Generators.of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                Double.MIN_VALUE,
                Double.MAX_VALUE,
                1e15,
                1e21));
    Gen<OptionalLong> timestamp =
        Generators.oneOf(
            Generators.constant(OptionalLong.empty()), Generators.longs().map(OptionalLong::of));
    Gen<Written> written =
        c -> {
          String metric = name.generate(c);
          Labels.Builder builder = Labels.builder();
          labels.generate(c).forEach(builder::set);
          builder.set(Labels.METRIC_NAME, metric);
          return new Written(builder.build(), value.generate(c), timestamp.generate(c));
        };
    return written.list(0, 5);
  }

  /**
   * Any text without lone surrogates, which UTF-8 cannot carry; the characters that the format
   * escapes or that delimit it come often.
   */
  private static Gen<String> text() {
    return Generators.strings(
        Generators.frequency(
            Generators.weighted(3, Generators.charRange('\u0000', '\uD7FF')),
            Generators.weighted(1, Generators.charsOf("\"\\\n{}=,# "))),
        0,
        12);
  }
}
