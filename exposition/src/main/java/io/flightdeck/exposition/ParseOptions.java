package io.flightdeck.exposition;

/**
 * Limits and checks for one parse.
 *
 * @param maxLineBytes longest line accepted, so one huge line cannot exhaust memory
 * @param maxLabels most labels on one sample or exemplar, {@code __name__} included
 * @param strictOpenMetrics whether OpenMetrics bodies must also satisfy the specification's
 *     semantic rules (family grouping, counter and bucket values, exemplar placement), as its
 *     conformance suite demands; Prometheus itself skips most of them when scraping
 */
public record ParseOptions(int maxLineBytes, int maxLabels, boolean strictOpenMetrics) {
  public ParseOptions {
    if (maxLineBytes <= 0 || maxLabels <= 0) {
      throw new IllegalArgumentException("limits must be positive");
    }
  }

  /** 1 MiB lines, 1024 labels, strict OpenMetrics. */
  public static ParseOptions defaults() {
    return new ParseOptions(1 << 20, 1024, true);
  }

  public ParseOptions withStrictOpenMetrics(boolean strict) {
    return new ParseOptions(maxLineBytes, maxLabels, strict);
  }
}
