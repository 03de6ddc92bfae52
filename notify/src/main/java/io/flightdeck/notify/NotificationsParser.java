package io.flightdeck.notify;

import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.model.Matcher;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns the raw {@code notifications} tree into a {@link NotificationsConfig}. */
final class NotificationsParser {
  private static final Set<String> TOP = Set.of("global", "route", "receivers", "inhibit_rules");
  private static final Set<String> GLOBAL = Set.of("resolve_timeout");
  private static final Set<String> ROUTE =
      Set.of(
          "receiver",
          "group_by",
          "group_wait",
          "group_interval",
          "repeat_interval",
          "matchers",
          "match",
          "match_re",
          "continue",
          "routes");
  private static final Set<String> RECEIVER =
      Set.of(
          "name",
          "webhook_configs",
          "slack_configs",
          "feishu_configs",
          "dingtalk_configs",
          "wecom_configs");
  private static final Set<String> INHIBIT =
      Set.of(
          "source_matchers",
          "target_matchers",
          "source_match",
          "source_match_re",
          "target_match",
          "target_match_re",
          "equal");

  private NotificationsParser() {}

  static NotificationsConfig parse(Map<String, Object> section) {
    if (section == null || section.isEmpty()) {
      return NotificationsConfig.NONE;
    }
    ConfigNode root = new ConfigNode(section, "notifications");
    Map<String, ConfigNode> f = root.fields(TOP);
    ConfigNode global = ConfigNode.get(f, root, "global");
    Duration resolveTimeout =
        nonZero(
            ConfigNode.get(global.fields(GLOBAL), global, "resolve_timeout"),
            "resolve_timeout",
            Duration.ofMinutes(5));

    Map<String, Receiver> receivers = new HashMap<>();
    List<Receiver> ordered = new ArrayList<>();
    for (ConfigNode node : ConfigNode.get(f, root, "receivers").items()) {
      Receiver receiver = receiver(node);
      if (receivers.putIfAbsent(receiver.name(), receiver) != null) {
        throw new ConfigNode(receiver.name(), node.path() + ".name")
            .error("duplicate receiver name \"" + receiver.name() + "\"");
      }
      ordered.add(receiver);
    }

    ConfigNode routeNode = ConfigNode.get(f, root, "route");
    if (routeNode.isAbsent()) {
      throw routeNode.error("missing (a notifications section needs a root route)");
    }
    Route route = rootRoute(routeNode, receivers.keySet());

    List<InhibitRule> inhibitRules = new ArrayList<>();
    for (ConfigNode node : ConfigNode.get(f, root, "inhibit_rules").items()) {
      inhibitRules.add(inhibitRule(node));
    }
    return new NotificationsConfig(route, ordered, inhibitRules, resolveTimeout);
  }

  private static Route rootRoute(ConfigNode node, Set<String> receivers) {
    Map<String, ConfigNode> f = node.fields(ROUTE);
    if (ConfigNode.get(f, node, "receiver").string(null) == null) {
      throw ConfigNode.get(f, node, "receiver").error("missing (the root route needs a receiver)");
    }
    for (String key : List.of("matchers", "match", "match_re")) {
      if (f.containsKey(key)) {
        throw f.get(key).error("the root route must not have matchers");
      }
    }
    if (f.containsKey("continue")) {
      throw f.get("continue").error("the root route cannot have continue set");
    }
    Route defaults =
        new Route(
            "",
            null,
            false,
            List.of(),
            Duration.ofSeconds(30),
            Duration.ofMinutes(5),
            Duration.ofHours(4),
            List.of(),
            false,
            List.of());
    return route(node, defaults, "{}", receivers);
  }

  private static Route route(ConfigNode node, Route parent, String key, Set<String> receivers) {
    Map<String, ConfigNode> f = node.fields(ROUTE);
    ConfigNode receiverNode = ConfigNode.get(f, node, "receiver");
    String receiver = receiverNode.string(parent.receiver());
    if (!receivers.contains(receiver)) {
      throw receiverNode.error("undefined receiver \"" + receiver + "\" used in route");
    }
    ConfigNode groupByNode = ConfigNode.get(f, node, "group_by");
    boolean groupByAll = parent.groupByAll();
    List<String> groupBy = parent.groupBy();
    if (!groupByNode.isAbsent()) {
      List<String> names = groupByNode.strings();
      groupByAll = names.contains("...");
      if (groupByAll && names.size() > 1) {
        throw groupByNode.error("cannot have wildcard group_by (`...`) and other labels at once");
      }
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < names.size() && !groupByAll; i++) {
        String name = names.get(i);
        if (!LabelNameSyntax.isLegacy(name)) {
          throw new ConfigNode(name, groupByNode.path() + "[" + i + "]")
              .error("invalid label name \"" + name + "\"");
        }
        if (!seen.add(name)) {
          throw new ConfigNode(name, groupByNode.path() + "[" + i + "]")
              .error("duplicated label \"" + name + "\" in group_by");
        }
      }
      groupBy = groupByAll ? List.of() : names;
    }
    Duration groupWait =
        orDefault(ConfigNode.get(f, node, "group_wait").duration(), parent.groupWait());
    Duration groupInterval =
        nonZero(
            ConfigNode.get(f, node, "group_interval"), "group_interval", parent.groupInterval());
    Duration repeatInterval =
        nonZero(
            ConfigNode.get(f, node, "repeat_interval"), "repeat_interval", parent.repeatInterval());
    List<Matcher> matchers = matchers(f, node, "matchers", "match", "match_re");
    boolean cont = ConfigNode.get(f, node, "continue").bool(false);

    Route self =
        new Route(
            key,
            receiver,
            groupByAll,
            groupBy,
            groupWait,
            groupInterval,
            repeatInterval,
            matchers,
            cont,
            List.of());
    List<ConfigNode> childNodes = ConfigNode.get(f, node, "routes").items();
    List<String> childMatchers = new ArrayList<>();
    for (ConfigNode child : childNodes) {
      Map<String, ConfigNode> cf = child.fields(ROUTE);
      childMatchers.add(
          matchers(cf, child, "matchers", "match", "match_re").stream()
              .map(Matcher::toString)
              .reduce((a, b) -> a + "," + b)
              .map(s -> "{" + s + "}")
              .orElse("{}"));
    }
    List<Route> children = new ArrayList<>();
    for (int i = 0; i < childNodes.size(); i++) {
      String childKey = key + "/" + childMatchers.get(i);
      if (childMatchers.indexOf(childMatchers.get(i))
          != childMatchers.lastIndexOf(childMatchers.get(i))) {
        childKey += "/" + i;
      }
      children.add(route(childNodes.get(i), self, childKey, receivers));
    }
    return new Route(
        key,
        receiver,
        groupByAll,
        groupBy,
        groupWait,
        groupInterval,
        repeatInterval,
        matchers,
        cont,
        children);
  }

  private static Receiver receiver(ConfigNode node) {
    Map<String, ConfigNode> f = node.fields(RECEIVER);
    String name = ConfigNode.get(f, node, "name").requiredString();
    List<IntegrationConfig> integrations = new ArrayList<>();
    for (ConfigNode c : ConfigNode.get(f, node, "webhook_configs").items()) {
      Map<String, ConfigNode> cf = c.fields(Set.of("url", "send_resolved", "max_alerts"));
      integrations.add(
          new WebhookConfig(
              ConfigNode.get(cf, c, "url").url(),
              ConfigNode.get(cf, c, "send_resolved").bool(true),
              ConfigNode.get(cf, c, "max_alerts").nonNegativeInt(0)));
    }
    for (ConfigNode c : ConfigNode.get(f, node, "slack_configs").items()) {
      Map<String, ConfigNode> cf =
          c.fields(Set.of("api_url", "channel", "username", "send_resolved"));
      integrations.add(
          new SlackConfig(
              ConfigNode.get(cf, c, "api_url").url(),
              ConfigNode.get(cf, c, "channel").string(""),
              ConfigNode.get(cf, c, "username").string(""),
              ConfigNode.get(cf, c, "send_resolved").bool(false)));
    }
    for (ConfigNode c : ConfigNode.get(f, node, "feishu_configs").items()) {
      Map<String, ConfigNode> cf = c.fields(Set.of("url", "secret", "send_resolved"));
      integrations.add(
          new FeishuConfig(
              ConfigNode.get(cf, c, "url").url(),
              ConfigNode.get(cf, c, "secret").string(""),
              ConfigNode.get(cf, c, "send_resolved").bool(true)));
    }
    for (ConfigNode c : ConfigNode.get(f, node, "dingtalk_configs").items()) {
      Map<String, ConfigNode> cf = c.fields(Set.of("url", "secret", "send_resolved"));
      integrations.add(
          new DingTalkConfig(
              ConfigNode.get(cf, c, "url").url(),
              ConfigNode.get(cf, c, "secret").string(""),
              ConfigNode.get(cf, c, "send_resolved").bool(true)));
    }
    for (ConfigNode c : ConfigNode.get(f, node, "wecom_configs").items()) {
      Map<String, ConfigNode> cf = c.fields(Set.of("url", "key", "send_resolved"));
      ConfigNode url = ConfigNode.get(cf, c, "url");
      ConfigNode key = ConfigNode.get(cf, c, "key");
      if (url.isAbsent() == key.isAbsent()) {
        throw c.error("exactly one of url and key must be set");
      }
      URI uri =
          url.isAbsent()
              ? new ConfigNode(WeComConfig.DEFAULT_BASE + key.requiredString(), key.path()).url()
              : url.url();
      integrations.add(new WeComConfig(uri, ConfigNode.get(cf, c, "send_resolved").bool(true)));
    }
    return new Receiver(name, integrations);
  }

  private static InhibitRule inhibitRule(ConfigNode node) {
    Map<String, ConfigNode> f = node.fields(INHIBIT);
    List<Matcher> source = matchers(f, node, "source_matchers", "source_match", "source_match_re");
    List<Matcher> target = matchers(f, node, "target_matchers", "target_match", "target_match_re");
    ConfigNode equalNode = ConfigNode.get(f, node, "equal");
    List<String> equal = equalNode.strings();
    for (int i = 0; i < equal.size(); i++) {
      if (!LabelNameSyntax.isLegacy(equal.get(i))) {
        throw new ConfigNode(equal.get(i), equalNode.path() + "[" + i + "]")
            .error("invalid label name \"" + equal.get(i) + "\"");
      }
    }
    return new InhibitRule(source, target, equal);
  }

  /** The matchers of a node from the current list form and the legacy equality and regex maps. */
  private static List<Matcher> matchers(
      Map<String, ConfigNode> f, ConfigNode owner, String listKey, String eqKey, String reKey) {
    Set<Matcher> matchers = new LinkedHashSet<>();
    for (ConfigNode item : ConfigNode.get(f, owner, listKey).items()) {
      try {
        matchers.addAll(AlertMatchers.parse(item.requiredString()));
      } catch (IllegalArgumentException e) {
        throw item.error(e.getMessage());
      }
    }
    ConfigNode eq = ConfigNode.get(f, owner, eqKey);
    eq.stringMap().forEach((name, value) -> matchers.add(labelMatcher(eq, name, value, false)));
    ConfigNode re = ConfigNode.get(f, owner, reKey);
    re.stringMap().forEach((name, value) -> matchers.add(labelMatcher(re, name, value, true)));
    return List.copyOf(matchers);
  }

  private static Matcher labelMatcher(ConfigNode map, String name, String value, boolean regex) {
    ConfigNode at = new ConfigNode(value, map.path() + "." + name);
    if (!LabelNameSyntax.isLegacy(name)) {
      throw at.error("invalid label name \"" + name + "\"");
    }
    try {
      return regex ? Matcher.regex(name, value) : Matcher.equal(name, value);
    } catch (IllegalArgumentException e) {
      throw at.error(e.getMessage());
    }
  }

  private static Duration orDefault(Duration value, Duration defaultValue) {
    return value != null ? value : defaultValue;
  }

  private static Duration nonZero(ConfigNode node, String name, Duration inherited) {
    Duration d = node.duration();
    if (d == null) {
      return inherited;
    }
    if (d.isZero()) {
      throw node.error(name + " cannot be zero");
    }
    return d;
  }
}
