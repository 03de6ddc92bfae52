package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The streaming view must say what {@link ExpositionParser#next()} says, sample by sample. */
class SampleStreamTest {

  private record Seen(String series, Labels labels, double value, Long timestamp) {}

  private static List<Seen> stream(ExpositionFormat format, byte[] body)
      throws ExpositionParseException {
    SampleStream samples = SampleStream.create(format, body, ParseOptions.defaults());
    List<Seen> seen = new ArrayList<>();
    while (samples.advance()) {
      String series =
          new String(
              samples.body(),
              samples.seriesStart(),
              samples.seriesEnd() - samples.seriesStart(),
              StandardCharsets.UTF_8);
      seen.add(
          new Seen(
              series,
              samples.labels(),
              samples.value(),
              samples.hasTimestamp() ? samples.timestampMs() : null));
    }
    return seen;
  }

  private static List<Seen> pull(ExpositionFormat format, byte[] body)
      throws ExpositionParseException {
    List<Seen> seen = new ArrayList<>();
    for (ParsedSample s : ExpositionParser.parseAll(format, body, ParseOptions.defaults())) {
      seen.add(
          new Seen(
              null,
              s.labels(),
              s.value(),
              s.timestampMs().isPresent() ? s.timestampMs().getAsLong() : null));
    }
    return seen;
  }

  private static void assertSameAsPull(ExpositionFormat format, byte[] body) throws Exception {
    List<Seen> streamed = stream(format, body);
    List<Seen> pulled = pull(format, body);
    assertThat(streamed).hasSameSizeAs(pulled);
    for (int i = 0; i < streamed.size(); i++) {
      Seen s = streamed.get(i);
      Seen p = pulled.get(i);
      assertThat(s.labels()).as("sample %d", i).isEqualTo(p.labels());
      assertThat(Double.doubleToRawLongBits(s.value()))
          .as("value of sample %d (%s)", i, s.labels())
          .isEqualTo(Double.doubleToRawLongBits(p.value()));
      assertThat(s.timestamp()).as("timestamp of sample %d", i).isEqualTo(p.timestamp());
    }
  }

  @TestFactory
  Stream<DynamicTest> textFixturesStreamAsTheyParse() throws IOException {
    try (Stream<Path> walk = Files.walk(SharedFixtures.fixture("exposition"))) {
      return walk
          .filter(
              p -> Stream.of(".txt", ".prom", ".out", ".metrics").anyMatch(p.toString()::endsWith))
          .filter(p -> !p.toString().contains("openmetrics"))
          .sorted()
          .toList()
          .stream()
          .map(
              file ->
                  DynamicTest.dynamicTest(
                      file.getFileName().toString(),
                      () -> {
                        byte[] body = Files.readAllBytes(file);
                        String error = null;
                        try {
                          pull(ExpositionFormat.TEXT_0_0_4, body);
                        } catch (ExpositionParseException e) {
                          error = e.getMessage();
                        }
                        if (error == null) {
                          assertSameAsPull(ExpositionFormat.TEXT_0_0_4, body);
                        } else {
                          assertThatThrownBy(() -> stream(ExpositionFormat.TEXT_0_0_4, body))
                              .hasMessage(error);
                        }
                      }));
    }
  }

  @Test
  void theSeriesBytesAreTheSeriesAsWritten() throws Exception {
    String body =
        """
        # TYPE a counter
        a_total 1
          b{x="1", y="}\\\\\\"{"} 2 1700000000000
        {"c.d",z=""}\t3
        e{} 4
        """;
    List<Seen> seen = stream(ExpositionFormat.TEXT_0_0_4, body.getBytes(StandardCharsets.UTF_8));
    assertThat(seen)
        .extracting(Seen::series)
        .containsExactly("a_total", "b{x=\"1\", y=\"}\\\\\\\"{\"}", "{\"c.d\",z=\"\"}", "e{}");
    assertThat(seen.get(1).labels()).isEqualTo(Labels.of("__name__", "b", "x", "1", "y", "}\\\"{"));
    assertThat(seen.get(1).timestamp()).isEqualTo(1700000000000L);
    assertThat(seen.get(2).labels()).isEqualTo(Labels.of("__name__", "c.d", "z", ""));
  }

  @Test
  void openMetricsSeriesBytesAreTheSeriesAsWritten() throws Exception {
    String body = "# TYPE a gauge\na{x=\"1\"} 2 1.5\n# EOF\n";
    List<Seen> seen =
        stream(ExpositionFormat.OPENMETRICS_1_0_0, body.getBytes(StandardCharsets.UTF_8));
    assertThat(seen)
        .containsExactly(new Seen("a{x=\"1\"}", Labels.of("__name__", "a", "x", "1"), 2, 1500L));
  }

  /** Malformed lines fail with the text, line and column that next() gives, series errors first. */
  @Test
  void errorsAreThoseOfThePullParser() {
    List<String> bodies =
        List.of(
            "ok 1\nbad{a=b} 1\n",
            "ok 1\nbad{a=\"b\" 1\n",
            "bad{a=\"b\",a=\"c\"} 1\n",
            "bad{a=b} x\n",
            "9bad 1\n",
            "bad{a=\"b\"}x 1\n",
            "bad{a=\"b\"} 1 2 3\n",
            "bad 1e\n",
            "bad 1 1.5\n",
            "bad{a=\"\\xff\"} 1\n".replace("\\xff", "\u00ff"));
    for (String text : bodies) {
      byte[] body = text.getBytes(StandardCharsets.ISO_8859_1);
      ExpositionParseException expected = null;
      try {
        pull(ExpositionFormat.TEXT_0_0_4, body);
      } catch (ExpositionParseException e) {
        expected = e;
      }
      assertThat(expected).as("the pull parser rejects %s", text).isNotNull();
      String message = expected.getMessage();
      assertThatThrownBy(() -> stream(ExpositionFormat.TEXT_0_0_4, body))
          .as(text)
          .isInstanceOf(ExpositionParseException.class)
          .hasMessage(message);
    }
  }

  /** A sign, 1 to 19 digits, and a decimal point among them or none. */
  private static Gen<String> plainDecimals() {
    Gen<String> digits = Generators.strings(Generators.numericChars(), 1, 19);
    Gen<String> sign = Generators.of("", "-", "+");
    Gen<Integer> points = Generators.integers(-1, 19);
    return c -> {
      String s = sign.generate(c);
      String d = digits.generate(c);
      int point = points.generate(c);
      return s
          + (point < 0 || point > d.length()
              ? d
              : d.substring(0, point) + "." + d.substring(point));
    };
  }

  /** Values read in place must be the double Java's (and Go's) parser gives, bit for bit. */
  @Test
  void plainDecimalsReadInPlaceRoundAsParseDouble() {
    Property.tries(5000).check(in -> readsAsParseDouble(in.draw("token", plainDecimals())));
  }

  private static void readsAsParseDouble(String token) throws Exception {
    List<Seen> seen =
        stream(
            ExpositionFormat.TEXT_0_0_4,
            ("m " + token + " 1700000000000\n").getBytes(StandardCharsets.US_ASCII));
    assertThat(Double.doubleToRawLongBits(seen.get(0).value()))
        .as(token)
        .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(token)));
    assertThat(seen.get(0).timestamp()).isEqualTo(1700000000000L);
  }
}
