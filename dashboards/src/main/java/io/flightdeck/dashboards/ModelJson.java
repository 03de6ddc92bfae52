package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The model's own JSON: what the store keeps, the API serves to the cockpit, and the cockpit sends
 * back. It carries {@code "schema": "flightdeck.dashboard/v1"} so that it is recognised on import.
 */
public final class ModelJson {
  public static final String SCHEMA = "flightdeck.dashboard/v1";

  private static final ObjectMapper MAPPER = JsonMapper.builder().build();

  private ModelJson() {}

  public static ObjectNode write(Dashboard dashboard) {
    ObjectNode tree = Json.NODES.objectNode();
    tree.put("schema", SCHEMA);
    tree.setAll((ObjectNode) MAPPER.valueToTree(dashboard));
    return tree;
  }

  static boolean isModel(JsonNode tree) {
    return SCHEMA.equals(tree.path("schema").asText());
  }

  public static Dashboard read(JsonNode tree) {
    ObjectNode copy = ((ObjectNode) tree).deepCopy();
    copy.remove("schema");
    try {
      return MAPPER.treeToValue(copy, Dashboard.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0];
      throw new DashboardFormatException("$", "not a valid " + SCHEMA + " document: " + message);
    }
  }
}
