package io.flightdeck.exposition;

import java.util.Locale;

/** The text formats a scrape may return, with content-type negotiation. */
public enum ExpositionFormat {
  /** Prometheus text format 0.0.4: timestamps in integer milliseconds, no exemplars. */
  TEXT_0_0_4("text/plain; version=0.0.4; charset=utf-8"),
  /** OpenMetrics 1.0 text: timestamps in seconds, exemplars, a mandatory {@code # EOF}. */
  OPENMETRICS_1_0_0("application/openmetrics-text; version=1.0.0; charset=utf-8");

  private final String contentType;

  ExpositionFormat(String contentType) {
    this.contentType = contentType;
  }

  /** The Content-Type header a server sends with a body in this format. */
  public String contentType() {
    return contentType;
  }

  /**
   * The format of a body with the given Content-Type header; a missing header or a media type we do
   * not parse (protobuf, say) yields {@code fallback}, which may be null.
   */
  public static ExpositionFormat forContentType(String header, ExpositionFormat fallback) {
    if (header == null || header.isBlank()) {
      return fallback;
    }
    int semicolon = header.indexOf(';');
    String mediaType =
        (semicolon < 0 ? header : header.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    return switch (mediaType) {
      case "application/openmetrics-text" -> OPENMETRICS_1_0_0;
      case "text/plain" -> TEXT_0_0_4;
      default -> fallback;
    };
  }
}
