package io.flightdeck.config;

import java.nio.file.Path;

/**
 * HTTP basic authentication. The password comes inline or from {@code passwordFile} (never both);
 * {@link #toString()} hides it.
 *
 * @param password empty when absent
 * @param passwordFile null when absent; relative names are taken from the config file's directory
 */
public record BasicAuth(String username, String password, Path passwordFile) {
  @Override
  public String toString() {
    return "BasicAuth[username="
        + username
        + ", password="
        + (password.isEmpty() ? "" : "<secret>")
        + ", passwordFile="
        + passwordFile
        + "]";
  }
}
