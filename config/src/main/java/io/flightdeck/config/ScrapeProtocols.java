package io.flightdeck.config;

import io.flightdeck.model.GoQuote;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decodes {@code scrape_protocols} and {@code fallback_scrape_protocol} with Prometheus's checks.
 */
final class ScrapeProtocols {
  private ScrapeProtocols() {}

  /**
   * The list at {@code node}, or {@code inherited} when absent.
   *
   * @param owner how Prometheus names the section in its errors, e.g. {@code for global config}
   */
  static List<ScrapeProtocol> decode(Node node, List<ScrapeProtocol> inherited, String owner) {
    if (node.isAbsent()) {
      return inherited;
    }
    List<String> names = node.strings();
    if (names.isEmpty()) {
      throw node.error("scrape_protocols cannot be empty " + owner);
    }
    Set<String> seen = new HashSet<>();
    List<ScrapeProtocol> protocols = new ArrayList<>();
    for (String name : names) {
      // Prometheus spots duplicates case-insensitively but accepts only the exact spelling.
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw node.error(
            "duplicated protocol in scrape_protocols, got ["
                + String.join(" ", names)
                + "] "
                + owner);
      }
      try {
        protocols.add(ScrapeProtocol.byConfigName(name));
      } catch (IllegalArgumentException e) {
        throw node.error("scrape_protocols: " + e.getMessage() + " " + owner);
      }
    }
    return protocols;
  }

  /** The fallback protocol, null when absent or empty. */
  static ScrapeProtocol decodeFallback(Node node, String job) {
    String name = node.string();
    if (name.isEmpty()) {
      return null;
    }
    try {
      return ScrapeProtocol.byConfigName(name);
    } catch (IllegalArgumentException e) {
      throw node.error(
          "invalid fallback_scrape_protocol for scrape config with job name "
              + GoQuote.quote(job)
              + ": "
              + e.getMessage());
    }
  }
}
