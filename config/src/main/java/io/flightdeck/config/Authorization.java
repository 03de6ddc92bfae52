package io.flightdeck.config;

import java.nio.file.Path;

/**
 * An {@code Authorization} header: {@code type} (default Bearer) and credentials inline or from a
 * file (never both); {@link #toString()} hides the credentials.
 *
 * @param credentials empty when absent
 * @param credentialsFile null when absent
 */
public record Authorization(String type, String credentials, Path credentialsFile) {
  public static final String DEFAULT_TYPE = "Bearer";

  @Override
  public String toString() {
    return "Authorization[type="
        + type
        + ", credentials="
        + (credentials.isEmpty() ? "" : "<secret>")
        + ", credentialsFile="
        + credentialsFile
        + "]";
  }
}
