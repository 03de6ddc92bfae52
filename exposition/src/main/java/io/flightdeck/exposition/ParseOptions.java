package io.flightdeck.exposition;

/**
 * Limits and checks for one parse.
 *
 * @param maxLineBytes longest line accepted, so one huge line cannot exhaust memory
 * @param maxLabels most labels on one sample or exemplar, {@code __name__} included
 * @param strictOpenMetrics whether OpenMetrics bodies must also satisfy the specification's
 *     semantic rules (family grouping, counter and bucket values, exemplar placement), as its
 *     conformance suite demands; Prometheus itself skips most of them when scraping
 * @param strictTextMetadata whether text-format bodies are refused when their metadata conflicts: a
 *     second TYPE line of another type, or a second HELP line of another text, for one family, or a
 *     TYPE line after the family's samples, as Pushgateway refuses them; Prometheus's scrapes
 *     accept such bodies
 */
public record ParseOptions(
    int maxLineBytes, int maxLabels, boolean strictOpenMetrics, boolean strictTextMetadata) {
  public ParseOptions {
    if (maxLineBytes <= 0 || maxLabels <= 0) {
      throw new IllegalArgumentException("limits must be positive");
    }
  }

  public ParseOptions(int maxLineBytes, int maxLabels, boolean strictOpenMetrics) {
    this(maxLineBytes, maxLabels, strictOpenMetrics, false);
  }

  /** 1 MiB lines, 1024 labels, strict OpenMetrics, lenient text metadata. */
  public static ParseOptions defaults() {
    return new ParseOptions(1 << 20, 1024, true, false);
  }

  public ParseOptions withStrictOpenMetrics(boolean strict) {
    return new ParseOptions(maxLineBytes, maxLabels, strict, strictTextMetadata);
  }

  public ParseOptions withStrictTextMetadata(boolean strict) {
    return new ParseOptions(maxLineBytes, maxLabels, strictOpenMetrics, strict);
  }
}
