package io.flightdeck.app;

import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiReplies;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.config.Config;
import io.flightdeck.model.Clock;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.rules.AlertSink;
import io.flightdeck.rules.GroupSnapshot;
import io.flightdeck.rules.RuleManager;
import io.flightdeck.rules.RuleManagerOptions;
import io.flightdeck.rules.RuleQuery;
import io.flightdeck.rules.RulesFilter;
import io.flightdeck.rules.RulesJson;
import io.flightdeck.tsdb.Tsdb;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's recording and alerting rules: the files named by the configuration's {@code
 * rule_files}, evaluated at its {@code evaluation_interval} against the embedded database, with
 * alerts handed to a sink (the notifier). A reload takes new rule files, evaluation interval and
 * external labels together.
 */
final class RulesRuntime implements AutoCloseable {
  private static final List<String> FILTERS =
      List.of("type", "rule_name[]", "group_name[]", "file[]", "exclude_alerts");

  private final RuleManager manager;

  RulesRuntime(Engine engine, Tsdb tsdb, AlertSink sink, String externalUrl) {
    RuleManagerOptions options =
        RuleManagerOptions.defaults(tsdb, tsdb, RuleQuery.engine(engine, tsdb), sink)
            .withClock(Clock.system())
            .withExternal(Map.of(), externalUrl);
    this.manager = new RuleManager(options);
  }

  /**
   * Loads the rule files of {@code config}; all must be valid or none is taken.
   *
   * @throws io.flightdeck.rules.RuleFileException naming file, line and rule of each problem
   */
  void apply(Config config) {
    manager.update(
        config.ruleFiles().stream().map(Path::toString).toList(),
        config.global().evaluationInterval(),
        config.global().ruleQueryOffset(),
        externalLabels(config));
  }

  private static Map<String, String> externalLabels(Config config) {
    Map<String, String> external = new TreeMap<>();
    config.global().externalLabels().forEach(external::put);
    return external;
  }

  void start() {
    manager.start();
  }

  /** The running groups, for the self-metrics. */
  List<GroupSnapshot> groups() {
    return manager.snapshot();
  }

  /**
   * {@code GET /api/v1/rules} (filters {@code type}, {@code rule_name[]}, ...) and {@code alerts}.
   */
  List<ApiRoute> routes() {
    return List.of(
        new ApiRoute("GET", "/api/v1/rules", this::rules),
        new ApiRoute("POST", "/api/v1/rules", this::rules),
        new ApiRoute("GET", "/api/v1/alerts", this::alerts),
        new ApiRoute("POST", "/api/v1/alerts", this::alerts));
  }

  private void rules(ApiExchange exchange) {
    Map<String, List<String>> params = new TreeMap<>();
    for (String name : FILTERS) {
      params.put(name, exchange.params(name));
    }
    RulesFilter filter;
    try {
      filter = RulesFilter.fromParameters(params);
    } catch (IllegalArgumentException e) {
      ApiReplies.badData(exchange, e.getMessage());
      return;
    }
    ApiReplies.successRaw(exchange, RulesJson.rules(manager.snapshot(), filter));
  }

  private void alerts(ApiExchange exchange) {
    ApiReplies.successRaw(exchange, RulesJson.alerts(manager.snapshot()));
  }

  @Override
  public void close() {
    manager.close();
  }
}
