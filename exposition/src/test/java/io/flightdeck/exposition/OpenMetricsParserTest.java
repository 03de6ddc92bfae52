package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenMetricsParserTest {

  private static List<ParsedSample> parse(String body, ParseOptions options)
      throws ExpositionParseException {
    return ExpositionParser.parseAll(
        ExpositionFormat.OPENMETRICS_1_0_0, body.getBytes(StandardCharsets.UTF_8), options);
  }

  private static List<ParsedSample> parse(String body) throws ExpositionParseException {
    return parse(body, ParseOptions.defaults());
  }

  /**
   * Scrapes (lenient) keep every sample of a family split by another, as Prometheus's OpenMetrics
   * parser does; the specification's strict rules refuse the body, naming the family and line.
   */
  @Test
  void aFamilySplitByAnotherIsKeptWhenLenientAndRefusedWhenStrict() throws Exception {
    String body =
        """
        # TYPE a counter
        a_total 1
        # TYPE b gauge
        b 2
        a_total{x="y"} 3
        # EOF
        """;
    List<ParsedSample> samples = parse(body, ParseOptions.defaults().withStrictOpenMetrics(false));
    assertThat(samples).extracting(ParsedSample::value).containsExactly(1.0, 2.0, 3.0);
    assertThat(samples).extracting(ParsedSample::family).containsExactly("a", "b", "a");
    assertThat(samples.get(2).metadata().type()).isEqualTo(MetricType.COUNTER);
    assertThatThrownBy(() -> parse(body))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageStartingWith("metric family \"a\" appears in more than one place [line=5");
  }

  @Test
  void timestampsAreExactSecondsAsMilliseconds() throws Exception {
    List<ParsedSample> samples =
        parse(
            """
            a{i="1"} 1 1.001
            a{i="2"} 1 0.0019
            a{i="3"} 1 -1.0015
            a{i="4"} 1 12345678901234567890.5
            # EOF
            """);
    assertThat(samples)
        .extracting(s -> s.timestampMs().getAsLong())
        .containsExactly(1001L, 1L, -1001L, Long.MAX_VALUE);
  }

  @Test
  void exemplarsAndUnitsAreExposed() throws Exception {
    List<ParsedSample> samples =
        parse(
            """
            # TYPE req_seconds histogram
            # UNIT req_seconds seconds
            req_seconds_bucket{le="0.1"} 1 # {trace_id="abc"} 0.05 1.5
            req_seconds_bucket{le="+Inf"} 2
            req_seconds_count 2
            req_seconds_sum 0.3
            # EOF
            """);
    ParsedSample bucket = samples.get(0);
    assertThat(bucket.family()).isEqualTo("req_seconds");
    assertThat(bucket.metadata().unit()).isEqualTo("seconds");
    assertThat(bucket.metadata().type()).isEqualTo(MetricType.HISTOGRAM);
    Exemplar exemplar = bucket.exemplar().orElseThrow();
    assertThat(exemplar.labels()).isEqualTo(Labels.of("trace_id", "abc"));
    assertThat(exemplar.value()).isEqualTo(0.05);
    assertThat(exemplar.timestampMs()).hasValue(1500);
    assertThat(samples.get(1).exemplar()).isEmpty();
  }

  @Test
  void eofIsRequiredAndFinal() throws Exception {
    assertThat(parse("# EOF")).isEmpty();
    assertThatThrownBy(() -> parse("a 1\n"))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageStartingWith("missing \"# EOF\"");
    assertThatThrownBy(() -> parse("# EOF\n\n"))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessage("content after \"# EOF\" [line=2]");
  }

  @Test
  void lenientModeSkipsSemanticRulesButNotSyntax() throws Exception {
    ParseOptions lenient = ParseOptions.defaults().withStrictOpenMetrics(false);
    String body =
        """
        # TYPE a counter
        a_total NaN
        b 1
        a_total -1
        # EOF
        """;
    assertThat(parse(body, lenient)).hasSize(3);
    assertThat(parse(body, lenient).get(2).family()).isEqualTo("a");
    assertThatThrownBy(() -> parse(body)).isInstanceOf(ExpositionParseException.class);
    assertThatThrownBy(() -> parse("a  1\n# EOF\n", lenient))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageStartingWith("invalid value \"\"");
  }

  @Test
  void semanticErrorsSayWhatIsWrong() {
    assertThatThrownBy(() -> parse("# TYPE a gauge\na 1\nb 1\na 2\n# EOF\n"))
        .hasMessage("metric family \"a\" appears in more than one place [line=4, column=4]");
    assertThatThrownBy(
            () -> parse("# TYPE a histogram\na_bucket{le=\"2\"} 1\na_bucket{le=\"1\"} 1\n# EOF\n"))
        .hasMessageStartingWith("bucket le=\"1\" out of order");
    assertThatCode(() -> parse("# TYPE a counter\na_total 1 # {x=\"y\"} 1\n# EOF\n"))
        .doesNotThrowAnyException();
  }
}
