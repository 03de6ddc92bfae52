package io.flightdeck.config;

/**
 * Per-scrape limits; 0 means no limit. Sample and label limits count after metric relabelling; the
 * target limit counts after target relabelling.
 */
public record ScrapeLimits(
    long sampleLimit,
    long labelLimit,
    long labelNameLengthLimit,
    long labelValueLengthLimit,
    long targetLimit,
    long bodySizeLimit) {
  public static final ScrapeLimits NONE = new ScrapeLimits(0, 0, 0, 0, 0, 0);
}
