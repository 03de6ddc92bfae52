package io.flightdeck.notify;

import io.flightdeck.config.HttpClientConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

/**
 * The Authorization header of an HTTP client config; files are read on each use to pick up
 * rotation.
 */
final class AuthHeaders {
  private AuthHeaders() {}

  static Map<String, String> of(HttpClientConfig config) {
    if (config.basicAuth() != null) {
      var auth = config.basicAuth();
      String password =
          auth.passwordFile() != null ? read(auth.passwordFile()) : nullToEmpty(auth.password());
      String token = auth.username() + ":" + password;
      return Map.of(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)));
    }
    if (config.authorization() != null) {
      var auth = config.authorization();
      String credentials =
          auth.credentialsFile() != null
              ? read(auth.credentialsFile())
              : nullToEmpty(auth.credentials());
      return Map.of("Authorization", auth.type() + " " + credentials);
    }
    return Map.of();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read credentials file " + file, e);
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
