package io.flightdeck.discovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decodes the list of {@code {targets: [...], labels: {...}}} objects that file and HTTP discovery
 * share (JSON, or YAML for files).
 */
final class TargetGroupDecoder {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private TargetGroupDecoder() {}

  static List<TargetGroup> json(String text, String source, Labels extra)
      throws DiscoveryException {
    return decode(JSON, text, source, extra);
  }

  static List<TargetGroup> yaml(String text, String source, Labels extra)
      throws DiscoveryException {
    return decode(YAML, text, source, extra);
  }

  /**
   * @param source prefix of each group's source, followed by {@code :index}
   * @param extra labels added to every group ({@code __meta_filepath}, {@code __meta_url})
   */
  private static List<TargetGroup> decode(
      ObjectMapper mapper, String text, String source, Labels extra) throws DiscoveryException {
    JsonNode root;
    try {
      root = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw new DiscoveryException(source + ": " + e.getOriginalMessage(), e);
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return List.of();
    }
    if (!root.isArray()) {
      throw new DiscoveryException(source + ": expected a list of target groups");
    }
    List<TargetGroup> groups = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      groups.add(group(root.get(i), source, i, extra));
    }
    return groups;
  }

  private static TargetGroup group(JsonNode node, String source, int index, Labels extra)
      throws DiscoveryException {
    String where = source + ": group " + index;
    if (!node.isObject()) {
      throw new DiscoveryException(where + ": expected an object with targets and labels");
    }
    List<Labels> targets = new ArrayList<>();
    JsonNode targetList = node.path("targets");
    if (!targetList.isMissingNode() && !targetList.isNull()) {
      if (!targetList.isArray()) {
        throw new DiscoveryException(where + ": targets must be a list of strings");
      }
      for (JsonNode target : targetList) {
        if (!target.isTextual() || target.asText().isEmpty()) {
          throw new DiscoveryException(where + ": targets must be non-empty strings");
        }
        targets.add(Labels.of(TargetGroup.ADDRESS, target.asText()));
      }
    }
    Labels.Builder labels = extra.toBuilder();
    JsonNode labelMap = node.path("labels");
    if (!labelMap.isMissingNode() && !labelMap.isNull()) {
      if (!labelMap.isObject()) {
        throw new DiscoveryException(where + ": labels must be a map of strings");
      }
      for (Map.Entry<String, JsonNode> label : labelMap.properties()) {
        if (!label.getValue().isTextual()) {
          throw new DiscoveryException(
              where + ": value of label " + label.getKey() + " must be a string");
        }
        labels.set(label.getKey(), label.getValue().asText());
      }
    }
    return new TargetGroup(source + ":" + index, targets, labels.build());
  }
}
