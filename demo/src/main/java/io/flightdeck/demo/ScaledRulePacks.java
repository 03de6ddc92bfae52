package io.flightdeck.demo;

import io.flightdeck.rules.RuleFile;
import io.flightdeck.rules.RuleFileParser;
import io.flightdeck.rules.RuleGroupSpec;
import io.flightdeck.rules.RulePacks;
import io.flightdeck.rules.RuleSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shipped rule packs with time compressed by the demo's speed ("rules scaled 1/speed"): each
 * expression through {@link DurationScaler}, and {@code for}, {@code keep_firing_for} and group
 * intervals divided likewise. The alerts, labels and annotations are the shipped ones, so the demo
 * fires the very rules a cluster would, only sooner.
 */
final class ScaledRulePacks {
  private ScaledRulePacks() {}

  /** Writes the scaled packs into {@code dir}; returns their paths in load order. */
  static List<Path> write(Path dir, double speed) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    for (String pack : RulePacks.FILES) {
      Path target = dir.resolve(pack);
      Files.writeString(target, scaledText(pack, speed));
      written.add(target);
    }
    return written;
  }

  static String scaledText(String pack, double speed) {
    DurationScaler scaler = new DurationScaler(speed);
    RuleFile file = RuleFileParser.parse(pack, RulePacks.text(pack));
    List<Object> groups = new ArrayList<>();
    for (RuleGroupSpec group : file.groups()) {
      Map<String, Object> g = new LinkedHashMap<>();
      g.put("name", group.name());
      if (present(group.interval())) {
        g.put("interval", duration(scaler.scale(group.interval())));
      }
      if (present(group.queryOffset())) {
        g.put("query_offset", duration(scaler.scale(group.queryOffset())));
      }
      if (group.limit() > 0) {
        g.put("limit", group.limit());
      }
      if (!group.labels().isEmpty()) {
        g.put("labels", new TreeMap<>(group.labels()));
      }
      List<Object> rules = new ArrayList<>();
      for (RuleSpec rule : group.rules()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put(rule.isAlerting() ? "alert" : "record", rule.name());
        r.put("expr", scaler.scale(rule.expr()));
        if (present(rule.forDuration())) {
          r.put("for", duration(scaler.scale(rule.forDuration())));
        }
        if (present(rule.keepFiringFor())) {
          r.put("keep_firing_for", duration(scaler.scale(rule.keepFiringFor())));
        }
        if (!rule.labels().isEmpty()) {
          r.put("labels", new TreeMap<>(rule.labels()));
        }
        if (!rule.annotations().isEmpty()) {
          r.put("annotations", new TreeMap<>(rule.annotations()));
        }
        rules.add(r);
      }
      g.put("rules", rules);
      groups.add(g);
    }
    return "# "
        + pack
        + " as shipped, with every duration divided by the demo's speed "
        + DemoScript.trim(speed)
        + " (rules scaled 1/speed).\n"
        + Yaml.write(Map.of("groups", groups));
  }

  private static boolean present(Duration d) {
    return d != null && !d.isZero();
  }

  /** A Prometheus duration: whole seconds when it has no milliseconds. */
  static String duration(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
