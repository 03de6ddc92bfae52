package io.flightdeck.dashboards;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One panel: its kind ({@link PanelKinds}), title, queries, Grafana-shaped {@code options} and
 * {@code fieldConfig} (units, thresholds, overrides...), transformations, links, and the query
 * settings a panel may override. A panel of a type we do not draw has kind {@code unsupported}; its
 * {@code options} say which type and keep the original for export.
 */
public record Panel(
    String kind,
    String title,
    String description,
    List<PanelQuery> queries,
    ObjectNode options,
    ObjectNode fieldConfig,
    ArrayNode transformations,
    ArrayNode links,
    String interval,
    Integer maxDataPoints,
    String timeFrom,
    String timeShift,
    boolean transparent,
    String repeat,
    String repeatDirection,
    Integer maxPerRow) {

  public Panel {
    kind = Text.orEmpty(kind);
    title = Text.orEmpty(title);
    description = Text.orEmpty(description);
    queries = queries == null ? List.of() : List.copyOf(queries);
    options = options == null ? JsonNodeFactory.instance.objectNode() : options.deepCopy();
    fieldConfig = fieldConfig == null ? emptyFieldConfig() : fieldConfig.deepCopy();
    transformations =
        transformations == null ? JsonNodeFactory.instance.arrayNode() : transformations.deepCopy();
    links = links == null ? JsonNodeFactory.instance.arrayNode() : links.deepCopy();
    interval = Text.orEmpty(interval);
    timeFrom = Text.orEmpty(timeFrom);
    timeShift = Text.orEmpty(timeShift);
    repeat = Text.orEmpty(repeat);
    repeatDirection = Text.orEmpty(repeatDirection);
  }

  /** A copy: the JSON parts of a record are mutable trees, so callers get their own. */
  @Override
  public ObjectNode options() {
    return options.deepCopy();
  }

  @Override
  public ObjectNode fieldConfig() {
    return fieldConfig.deepCopy();
  }

  @Override
  public ArrayNode transformations() {
    return transformations.deepCopy();
  }

  @Override
  public ArrayNode links() {
    return links.deepCopy();
  }

  @JsonIgnore
  public boolean isUnsupported() {
    return PanelKinds.UNSUPPORTED.equals(kind);
  }

  static ObjectNode emptyFieldConfig() {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.putObject("defaults");
    config.putArray("overrides");
    return config;
  }
}
