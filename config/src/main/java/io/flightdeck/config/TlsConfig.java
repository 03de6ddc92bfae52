package io.flightdeck.config;

import java.nio.file.Path;

/**
 * TLS settings for an HTTP client. File fields are null when absent.
 *
 * @param serverName empty when absent (the host of the URL is used)
 */
public record TlsConfig(
    Path caFile, Path certFile, Path keyFile, String serverName, boolean insecureSkipVerify) {
  public static final TlsConfig DEFAULT = new TlsConfig(null, null, null, "", false);
}
