package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeProtocol;
import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.model.GoQuote;

/**
 * Chooses the parser for a scraped body from its Content-Type, as Prometheus 3 does: a missing or
 * unknown media type is read as the job's {@code fallback_scrape_protocol}, and without one the
 * scrape fails rather than guess (Prometheus 2 guessed text 0.0.4; 3 stopped, and so do we, so a
 * prometheus.yml behaves the same here).
 */
final class ResponseFormat {
  private ResponseFormat() {}

  /**
   * @param fallback the job's {@code fallback_scrape_protocol}, null when it has none
   * @throws ScrapeException with Prometheus's message when the body cannot be placed
   */
  static ExpositionFormat of(String contentType, byte[] body, ScrapeProtocol fallback)
      throws ScrapeException {
    if (body.length == 0) {
      // Nothing to parse: an empty body only makes the target's series stale.
      return ExpositionFormat.TEXT_0_0_4;
    }
    ExpositionFormat format = ExpositionFormat.forContentType(contentType, parserFor(fallback));
    if (format != null) {
      return format;
    }
    if (fallback == ScrapeProtocol.PROMETHEUS_PROTO) {
      throw new ScrapeException(
          "received Content-Type "
              + GoQuote.quote(contentType)
              + " and fallback_scrape_protocol PrometheusProto; Flightdeck parses the text formats"
              + " only");
    }
    if (contentType == null || contentType.isBlank()) {
      throw new ScrapeException(
          "non-compliant scrape target sending blank Content-Type and no"
              + " fallback_scrape_protocol specified for target");
    }
    throw new ScrapeException(
        "received unsupported Content-Type "
            + GoQuote.quote(contentType)
            + " and no fallback_scrape_protocol specified for target");
  }

  private static ExpositionFormat parserFor(ScrapeProtocol protocol) {
    if (protocol == null || protocol == ScrapeProtocol.PROMETHEUS_PROTO) {
      return null;
    }
    return protocol.isOpenMetrics()
        ? ExpositionFormat.OPENMETRICS_1_0_0
        : ExpositionFormat.TEXT_0_0_4;
  }
}
