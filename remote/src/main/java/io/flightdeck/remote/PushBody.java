package io.flightdeck.remote;

import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.exposition.ParsedSample;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The body of one push (text format 0.0.4), checked as Pushgateway checks it: samples carry no
 * timestamp (the gateway's scrape time is theirs) and each series appears once. The grouping labels
 * replace the body's labels of the same name; an empty grouping value removes the body's label.
 *
 * @param series each series' value, in body order
 * @param metadata HELP, TYPE and UNIT of the body's families
 * @param families the names of the metric families the body has samples of
 */
record PushBody(
    Map<Labels, Double> series, Map<String, MetricMetadata> metadata, Set<String> families) {

  static PushBody parse(byte[] body, Map<String, String> grouping)
      throws ExpositionParseException, InvalidPushException {
    ExpositionParser parser =
        ExpositionParser.create(
            ExpositionFormat.TEXT_0_0_4,
            body,
            ParseOptions.defaults().withStrictTextMetadata(true));
    SampleLines lines = new SampleLines(body);
    Map<Labels, Double> series = new LinkedHashMap<>();
    Set<String> families = new HashSet<>();
    for (ParsedSample parsed = parser.next(); parsed != null; parsed = parser.next()) {
      lines.advance();
      families.add(parsed.family());
      if (parsed.timestampMs().isPresent()) {
        throw new InvalidPushException(
            "pushed metrics must not have timestamps, line "
                + lines.number
                + " has one: \""
                + lines.text
                + "\"");
      }
      Labels.Builder labels = parsed.labels().toBuilder();
      grouping.forEach(labels::set);
      Labels key = labels.build();
      if (series.put(key, parsed.value()) != null) {
        throw new InvalidPushException(
            "series " + key + " is pushed twice, again on line " + lines.number);
      }
    }
    return new PushBody(series, Map.copyOf(parser.metadata()), Set.copyOf(families));
  }

  /**
   * Finds the body line of each sample the parser returns: in text 0.0.4 every line that is not
   * blank and not a comment holds exactly one sample.
   */
  private static final class SampleLines {
    private final byte[] body;
    private int position;
    private int lineNumber;
    int number;
    String text;

    SampleLines(byte[] body) {
      this.body = body;
    }

    void advance() {
      while (position < body.length) {
        int start = position;
        int end = start;
        while (end < body.length && body[end] != '\n') {
          end++;
        }
        position = end + 1;
        lineNumber++;
        int first = start;
        while (first < end && (body[first] == ' ' || body[first] == '\t')) {
          first++;
        }
        if (first < end && body[first] != '#') {
          number = lineNumber;
          text = new String(body, start, end - start, StandardCharsets.UTF_8);
          return;
        }
      }
    }
  }
}
