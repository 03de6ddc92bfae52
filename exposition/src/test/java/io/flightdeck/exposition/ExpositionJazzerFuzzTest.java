package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzzing of the two exposition parsers (Jazzer). Without {@code JAZZER_FUZZ} this
 * replays the committed inputs in {@code ExpositionJazzerFuzzTestInputs/<method>}; {@code
 * ./run-tests --fuzz text-exposition openmetrics} explores from them (docs/testing.md).
 *
 * <p>Each body goes through both entry points: a body either parses or fails with {@link
 * ExpositionParseException}, nothing else; and the streaming view a scrape uses gives the samples,
 * or the error with its line and column, that the pull parser gives.
 */
class ExpositionJazzerFuzzTest {
  private record Seen(Labels labels, long valueBits, Long timestamp) {}

  /** Either the samples of a body or the error that ended it. */
  private record Outcome(List<Seen> samples, String error) {}

  @FuzzTest(maxDuration = "30s")
  void prometheusText(byte[] body) {
    assertBothEntryPointsAgree(ExpositionFormat.TEXT_0_0_4, body, ParseOptions.defaults());
  }

  @FuzzTest(maxDuration = "30s")
  void openMetrics(byte[] body) {
    ParseOptions strict = ParseOptions.defaults();
    assertBothEntryPointsAgree(ExpositionFormat.OPENMETRICS_1_0_0, body, strict);
    // Scrapes parse OpenMetrics without the specification's semantic checks, as Prometheus does.
    assertBothEntryPointsAgree(
        ExpositionFormat.OPENMETRICS_1_0_0, body, strict.withStrictOpenMetrics(false));
  }

  private static void assertBothEntryPointsAgree(
      ExpositionFormat format, byte[] body, ParseOptions options) {
    Outcome pulled = pull(format, body, options);
    Outcome streamed = stream(format, body, options);
    assertThat(streamed).as("streamed against pulled, %s", format).isEqualTo(pulled);
  }

  private static Outcome pull(ExpositionFormat format, byte[] body, ParseOptions options) {
    List<Seen> seen = new ArrayList<>();
    ExpositionParser parser = ExpositionParser.create(format, body, options);
    try {
      for (ParsedSample s = parser.next(); s != null; s = parser.next()) {
        Long timestamp = s.timestampMs().isPresent() ? s.timestampMs().getAsLong() : null;
        seen.add(new Seen(s.labels(), Double.doubleToLongBits(s.value()), timestamp));
      }
    } catch (ExpositionParseException e) {
      return new Outcome(seen, e.getMessage());
    }
    return new Outcome(seen, null);
  }

  private static Outcome stream(ExpositionFormat format, byte[] body, ParseOptions options) {
    List<Seen> seen = new ArrayList<>();
    SampleStream samples = SampleStream.create(format, body, options);
    try {
      while (samples.advance()) {
        Labels labels = samples.labels();
        Long timestamp = samples.hasTimestamp() ? samples.timestampMs() : null;
        seen.add(new Seen(labels, Double.doubleToLongBits(samples.value()), timestamp));
      }
    } catch (ExpositionParseException e) {
      return new Outcome(seen, e.getMessage());
    }
    return new Outcome(seen, null);
  }
}
