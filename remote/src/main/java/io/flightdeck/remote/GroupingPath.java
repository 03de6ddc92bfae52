package io.flightdeck.remote;

import io.flightdeck.model.LabelNameSyntax;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses a Pushgateway grouping key from the path after {@code /metrics/}: {@code
 * job/<job>{/<label>/<value>}}, segments percent-encoded, and a name ending in {@code @base64}
 * marking its value as URL-safe base64 (how clients send values containing {@code /}).
 */
final class GroupingPath {
  private static final String BASE64_SUFFIX = "@base64";

  private GroupingPath() {}

  /**
   * The grouping labels in path order, job first. Empty values are kept: they still override, that
   * is remove, a body label of the same name, as in Pushgateway.
   *
   * @throws IllegalArgumentException with a message for the client when the path is malformed
   */
  static Map<String, String> parse(String rawPath) {
    String trimmed = rawPath.endsWith("/") ? rawPath.substring(0, rawPath.length() - 1) : rawPath;
    String[] segments = trimmed.split("/", -1);
    if (segments.length < 2 || segments.length % 2 != 0) {
      throw new IllegalArgumentException(
          "grouping key must be job/<job>{/<label>/<value>}, got \"" + rawPath + "\"");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i < segments.length; i += 2) {
      String name = unescape(segments[i]);
      String value = unescape(segments[i + 1]);
      if (name.endsWith(BASE64_SUFFIX)) {
        name = name.substring(0, name.length() - BASE64_SUFFIX.length());
        value = decodeBase64(name, value);
      }
      if (i == 0 && !name.equals("job")) {
        throw new IllegalArgumentException(
            "grouping key must start with job, got \"" + name + "\"");
      }
      if (i == 0 && value.isEmpty()) {
        throw new IllegalArgumentException("job name is required");
      }
      if (!LabelNameSyntax.isLegacy(name) || name.startsWith("__")) {
        throw new IllegalArgumentException("improper label name \"" + name + "\"");
      }
      if (labels.containsKey(name)) {
        throw new IllegalArgumentException("duplicate label name \"" + name + "\"");
      }
      labels.put(name, value);
    }
    return labels;
  }

  private static String unescape(String segment) {
    try {
      return URI.create("/" + segment).getPath().substring(1);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid escaping in path segment \"" + segment + "\"");
    }
  }

  private static String decodeBase64(String name, String value) {
    // Pushgateway accepts padded and unpadded values; "=" alone stands for the empty string.
    String unpadded = value.replace("=", "");
    try {
      return new String(Base64.getUrlDecoder().decode(unpadded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid base64 encoding for label " + name + ": \"" + value + "\"");
    }
  }
}
