package io.flightdeck.rules;

import io.flightdeck.model.GoQuote;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The filters of {@code /api/v1/rules}: {@code type} (alert or record), {@code rule_name[]}, {@code
 * group_name[]}, {@code file[]} and {@code exclude_alerts}. Empty sets match everything.
 */
public record RulesFilter(
    boolean alerts,
    boolean recording,
    Set<String> ruleNames,
    Set<String> groupNames,
    Set<String> files,
    boolean excludeAlerts) {

  public static final RulesFilter ALL =
      new RulesFilter(true, true, Set.of(), Set.of(), Set.of(), false);

  public RulesFilter {
    ruleNames = Set.copyOf(ruleNames);
    groupNames = Set.copyOf(groupNames);
    files = Set.copyOf(files);
  }

  /**
   * Reads the filters from query parameters (each name to all its values).
   *
   * @throws IllegalArgumentException with Prometheus's message, for a {@code bad_data} error
   */
  public static RulesFilter fromParameters(Map<String, List<String>> params) {
    String type = first(params, "type").toLowerCase();
    if (!type.isEmpty() && !type.equals("alert") && !type.equals("record")) {
      throw new IllegalArgumentException(
          "invalid parameter \"type\": not supported value " + GoQuote.quote(type));
    }
    String exclude = first(params, "exclude_alerts").toLowerCase();
    if (!exclude.isEmpty() && !exclude.equals("true") && !exclude.equals("false")) {
      throw new IllegalArgumentException(
          "invalid parameter \"exclude_alerts\": strconv.ParseBool: parsing "
              + GoQuote.quote(exclude)
              + ": invalid syntax");
    }
    return new RulesFilter(
        type.isEmpty() || type.equals("alert"),
        type.isEmpty() || type.equals("record"),
        Set.copyOf(params.getOrDefault("rule_name[]", List.of())),
        Set.copyOf(params.getOrDefault("group_name[]", List.of())),
        Set.copyOf(params.getOrDefault("file[]", List.of())),
        exclude.equals("true"));
  }

  private static String first(Map<String, List<String>> params, String name) {
    List<String> values = params.getOrDefault(name, List.of());
    return values.isEmpty() ? "" : values.getFirst();
  }
}
