package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** What the writer writes, the text parser reads back unchanged. */
class RoundTripTest {
  record Written(Labels labels, double value, OptionalLong timestampMs) {}

  @Property(tries = 500)
  void writtenSamplesParseBackIdentically(
      @ForAll("samples") List<Written> samples, @ForAll("helps") String help) throws Exception {
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

  @Provide
  Arbitrary<String> helps() {
    return text().filter(s -> s.isEmpty() || (s.charAt(0) != ' ' && s.charAt(0) != '\t'));
  }

  @Provide
  Arbitrary<List<Written>> samples() {
    Arbitrary<String> legacyName =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .withChars('_', ':')
            .ofMinLength(1)
            .ofMaxLength(8);
    Arbitrary<String> anyName = text().filter(s -> !s.isEmpty() && !s.equals(Labels.METRIC_NAME));
    Arbitrary<String> name = Arbitraries.oneOf(legacyName, anyName);
    Arbitrary<Map<String, String>> labels = Arbitraries.maps(name, text()).ofMaxSize(4);
    Arbitrary<Double> value =
        Arbitraries.oneOf(
            Arbitraries.doubles(),
            Arbitraries.longs().map(Long::doubleValue),
            Arbitraries.of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                Double.MIN_VALUE,
                Double.MAX_VALUE,
                1e15,
                1e21));
    Arbitrary<OptionalLong> timestamp =
        Arbitraries.oneOf(
            Arbitraries.just(OptionalLong.empty()), Arbitraries.longs().map(OptionalLong::of));
    return Combinators.combine(name, labels, value, timestamp)
        .as(
            (metric, pairs, v, ts) -> {
              Labels.Builder builder = Labels.builder();
              pairs.forEach(builder::set);
              builder.set(Labels.METRIC_NAME, metric);
              return new Written(builder.build(), v, ts);
            })
        .list()
        .ofMaxSize(5);
  }

  /** Any text without lone surrogates, which UTF-8 cannot carry. */
  private static Arbitrary<String> text() {
    return Arbitraries.strings()
        .withCharRange('\u0000', '\uD7FF')
        .withChars('"', '\\', '\n', '{', '}', '=', ',', '#', ' ')
        .ofMaxLength(12);
  }
}
