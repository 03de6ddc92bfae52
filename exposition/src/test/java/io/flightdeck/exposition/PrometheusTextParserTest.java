package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrometheusTextParserTest {

  private static List<ParsedSample> parse(String body) throws ExpositionParseException {
    return ExpositionParser.parseAll(
        ExpositionFormat.TEXT_0_0_4,
        body.getBytes(StandardCharsets.UTF_8),
        ParseOptions.defaults());
  }

  private static ExpositionParseException failure(String body) {
    try {
      parse(body);
    } catch (ExpositionParseException e) {
      return e;
    }
    throw new AssertionError("accepted: " + body);
  }

  @Test
  void conflictingMetadataIsAcceptedUnlessStrict() throws Exception {
    String body = "# TYPE m counter\nm 1\n# TYPE m gauge\nm 2\n";
    // As Prometheus's scrapes: the later TYPE line wins.
    assertThat(parse(body)).hasSize(2);
    ParseOptions strict = ParseOptions.defaults().withStrictTextMetadata(true);
    assertThatThrownBy(
            () ->
                ExpositionParser.parseAll(
                    ExpositionFormat.TEXT_0_0_4, body.getBytes(StandardCharsets.UTF_8), strict))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessage(
            "TYPE line for metric name \"m\" after its samples (from line 2) [line=3, column=8]")
        .satisfies(e -> assertThat(((ExpositionParseException) e).line()).isEqualTo(3));
  }

  @Test
  void samplesWithLabelsTimestampsAndSpecialValues() throws Exception {
    List<ParsedSample> samples =
        parse(
            """
            # a free comment
            \t
            plain 1.5
            with_ts{a="x", b="y",} -2e3 1700000000123
            inf{} +Inf
            ninf -inf
            nan NaN
            """);
    assertThat(samples).hasSize(5);
    assertThat(samples.get(0).labels()).isEqualTo(Labels.of("__name__", "plain"));
    assertThat(samples.get(1).labels())
        .isEqualTo(Labels.of("__name__", "with_ts", "a", "x", "b", "y"));
    assertThat(samples.get(1).value()).isEqualTo(-2000.0);
    assertThat(samples.get(1).timestampMs()).hasValue(1700000000123L);
    assertThat(samples.get(2).value()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(samples.get(3).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(samples.get(4).value()).isNaN();
  }

  @Test
  void familiesFollowHistogramAndSummarySuffixes() throws Exception {
    ExpositionParser parser =
        ExpositionParser.create(
            ExpositionFormat.TEXT_0_0_4,
            """
            # HELP rpc Latency.
            # TYPE rpc summary
            rpc{quantile="0.5"} 1
            rpc_sum 3
            rpc_count 2
            # TYPE h histogram
            h_bucket{le="+Inf"} 2
            h_sum 1
            other 7
            """
                .getBytes(StandardCharsets.UTF_8));
    assertThat(parser.next().family()).isEqualTo("rpc");
    assertThat(parser.next().metadata().help()).isEqualTo("Latency.");
    assertThat(parser.next().metadata().type()).isEqualTo(MetricType.SUMMARY);
    ParsedSample bucket = parser.next();
    assertThat(bucket.family()).isEqualTo("h");
    assertThat(bucket.metadata().type()).isEqualTo(MetricType.HISTOGRAM);
    assertThat(parser.next().family()).isEqualTo("h");
    ParsedSample other = parser.next();
    assertThat(other.family()).isEqualTo("other");
    assertThat(other.metadata().type()).isEqualTo(MetricType.UNKNOWN);
    assertThat(parser.next()).isNull();
    assertThat(parser.metadata()).containsOnlyKeys("rpc", "h");
  }

  /**
   * A family whose samples are split by another family's keeps every sample and its own family, as
   * Prometheus's text parser and VictoriaMetrics's import take such bodies; strict metadata (for
   * pushes) accepts it too when no TYPE or HELP line is repeated.
   */
  @Test
  void aFamilySplitByAnotherKeepsEverySampleAndItsFamily() throws Exception {
    String body =
        """
        # TYPE a counter
        a 1
        # TYPE b gauge
        b 2
        a{x="y"} 3
        # TYPE h histogram
        h_bucket{le="1"} 1
        other 9
        h_bucket{le="+Inf"} 2
        b{x="z"} 4
        h_sum 1.5
        h_count 2
        """;
    for (ParseOptions options :
        List.of(ParseOptions.defaults(), ParseOptions.defaults().withStrictTextMetadata(true))) {
      List<ParsedSample> samples =
          ExpositionParser.parseAll(
              ExpositionFormat.TEXT_0_0_4, body.getBytes(StandardCharsets.UTF_8), options);
      assertThat(samples)
          .extracting(s -> s.labels().toString() + "=" + s.value())
          .containsExactly(
              "a{}=1.0",
              "b{}=2.0",
              "a{x=\"y\"}=3.0",
              "h_bucket{le=\"1\"}=1.0",
              "other{}=9.0",
              "h_bucket{le=\"+Inf\"}=2.0",
              "b{x=\"z\"}=4.0",
              "h_sum{}=1.5",
              "h_count{}=2.0");
      assertThat(samples)
          .extracting(ParsedSample::family)
          .containsExactly("a", "b", "a", "h", "other", "h", "b", "h", "h");
      assertThat(samples.get(2).metadata().type()).isEqualTo(MetricType.COUNTER);
      assertThat(samples.get(6).metadata().type()).isEqualTo(MetricType.GAUGE);
      assertThat(samples.get(8).metadata().type()).isEqualTo(MetricType.HISTOGRAM);
    }
  }

  /** Prometheus's scrapes take a family declared again after another; pushes refuse it. */
  @Test
  void aFamilyDeclaredAgainAfterAnotherIsTakenUnlessStrict() throws Exception {
    String body = "# TYPE a counter\na 1\n# TYPE b gauge\nb 2\n# TYPE a counter\na{x=\"y\"} 3\n";
    assertThat(parse(body)).extracting(ParsedSample::value).containsExactly(1.0, 2.0, 3.0);
    ParseOptions strict = ParseOptions.defaults().withStrictTextMetadata(true);
    assertThatThrownBy(
            () ->
                ExpositionParser.parseAll(
                    ExpositionFormat.TEXT_0_0_4, body.getBytes(StandardCharsets.UTF_8), strict))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessage(
            "TYPE line for metric name \"a\" after its samples (from line 2) [line=5, column=8]");
  }

  /** CRLF line ends are refused (as by Prometheus), with the carriage return shown. */
  @Test
  void errorMessagesShowControlCharacters() {
    assertThat(failure("a 1\r\nb 2\r\n")).hasMessage("invalid value \"1\\r\" [line=1, column=5]");
    assertThat(failure("a 1 1700000000000\r\n"))
        .hasMessage("invalid timestamp \"1700000000000\\r\" [line=1, column=19]");
    assertThat(failure("# TYPE a gauge\r\n"))
        .hasMessageStartingWith("invalid metric type \"gauge\\r\"");
    assertThat(failure("a\r 1\n"))
        .hasMessageStartingWith("expected blank before value, got \"\\r 1\"");
    assertThat(failure("a \u0001\n")).hasMessageStartingWith("invalid value \"\\x01\"");
  }

  @Test
  void quotedNamesAndEscapes() throws Exception {
    ParsedSample sample =
        parse("{\"my.metric\", \"label.name\"=\"v\\\\\\n\\\"\", plain=\"\\q\"} 3\n").get(0);
    assertThat(sample.metricName()).isEqualTo("my.metric");
    assertThat(sample.labels().get("label.name")).isEqualTo("v\\\n\"");
    assertThat(sample.labels().get("plain")).isEqualTo("\\q");
  }

  @Test
  void errorsNameWhatIsWrongWithLineAndColumn() {
    ExpositionParseException e = failure("ok 1\nbad{1=\"x\"} 1\n");
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo(5);
    assertThat(e).hasMessage("expected label name, got \"1=\"x\"} 1\" [line=2, column=5]");
    assertThat(failure("a{b=\"c\" 1").getMessage())
        .startsWith("expected \",\" or \"}\" after label");
    assertThat(failure("a{b=\"c} 1").getMessage()).startsWith("unterminated quoted string");
    assertThat(failure("a one").getMessage()).startsWith("invalid value \"one\"");
    assertThat(failure("a 0x1p3").getMessage()).startsWith("invalid value");
    assertThat(failure("a 1e999").getMessage()).startsWith("invalid value");
    assertThat(failure("a 1 1.5").getMessage()).startsWith("invalid timestamp \"1.5\"");
    assertThat(failure("a 1 2 3").getMessage()).startsWith("expected end of line");
    assertThat(failure("a{b=\"1\",b=\"2\"} 1").getMessage())
        .startsWith("duplicate label name \"b\"");
    assertThat(failure("{b=\"1\"} 1").getMessage()).startsWith("metric name missing");
    assertThat(failure("# TYPE a gaugehistogram").getMessage()).startsWith("invalid metric type");
    assertThat(failure("a").getMessage()).startsWith("expected blank before value");
  }

  @Test
  void invalidUtf8InLabelValuesIsRejected() {
    byte[] body = {'a', '{', 'b', '=', '"', (byte) 0xff, '"', '}', ' ', '1'};
    assertThatThrownBy(
            () ->
                ExpositionParser.parseAll(
                    ExpositionFormat.TEXT_0_0_4, body, ParseOptions.defaults()))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageStartingWith("invalid UTF-8 in label value");
  }

  @Test
  void limitsGuardLinesAndLabelSets() {
    ParseOptions tight = new ParseOptions(32, 3, true);
    byte[] longLine = ("a{b=\"" + "x".repeat(64) + "\"} 1\n").getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(
            () -> ExpositionParser.parseAll(ExpositionFormat.TEXT_0_0_4, longLine, tight))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageStartingWith("line longer than the limit of 32 bytes");
    byte[] manyLabels = "a{b=\"1\",c=\"2\",d=\"3\"} 1\n".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(
            () -> ExpositionParser.parseAll(ExpositionFormat.TEXT_0_0_4, manyLabels, tight))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageStartingWith("more than 3 labels");
  }
}
