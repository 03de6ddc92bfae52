package io.flightdeck.dashboards;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.Locale;

/**
 * Parses a dashboard document, JSON or YAML, into a tree: bounded in size and nesting so that a
 * hostile file fails fast, and with the line and column of a syntax error.
 */
final class DocumentReader {
  /** Larger than any real dashboard (grafana.com's biggest are a few MB). */
  static final int MAX_BYTES = 10 * 1024 * 1024;

  private static final int MAX_DEPTH = 100;

  private static final StreamReadConstraints CONSTRAINTS =
      StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build();
  private static final ObjectMapper JSON =
      JsonMapper.builder(JsonFactory.builder().streamReadConstraints(CONSTRAINTS).build()).build();
  private static final ObjectMapper YAML =
      YAMLMapper.builder(YAMLFactory.builder().streamReadConstraints(CONSTRAINTS).build()).build();

  private DocumentReader() {}

  static JsonNode read(byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      throw new DashboardFormatException(
          "",
          String.format(
              Locale.ROOT,
              "the document is %,d bytes, more than the limit of %,d bytes (10 MiB)",
              bytes.length,
              MAX_BYTES));
    }
    boolean json = startsLikeJson(bytes);
    JsonNode tree;
    try {
      tree = (json ? JSON : YAML).readTree(bytes);
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
      throw new DashboardFormatException(
          where, (json ? "malformed JSON: " : "malformed YAML: ") + e.getOriginalMessage());
    } catch (IOException e) {
      throw new DashboardFormatException("", "unreadable document: " + e.getMessage());
    }
    if (tree == null || tree.isMissingNode() || tree.isNull()) {
      throw new DashboardFormatException("", "the document is empty");
    }
    if (!tree.isObject()) {
      throw new DashboardFormatException(
          "$", "a dashboard is a JSON object, not " + Json.typeName(tree));
    }
    return tree;
  }

  private static boolean startsLikeJson(byte[] bytes) {
    for (byte b : bytes) {
      if (!Character.isWhitespace(b) && b != (byte) 0xEF && b != (byte) 0xBB && b != (byte) 0xBF) {
        return b == '{' || b == '[';
      }
    }
    return true;
  }
}
