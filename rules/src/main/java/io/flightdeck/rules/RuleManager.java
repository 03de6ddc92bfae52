package io.flightdeck.rules;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Loads rule files and runs their groups, one named thread per group. {@link #update} swaps in a
 * new set of files only if every file is valid; groups that did not change keep running untouched,
 * changed ones take over the state of their predecessor, removed ones mark their series stale.
 * Thread-safe.
 */
public final class RuleManager implements AutoCloseable {
  private RuleManagerOptions options;
  private Map<String, RuleGroup> groups = new LinkedHashMap<>();
  private boolean started;

  /** False until the first update: only the groups loaded at startup restore their for-state. */
  private boolean loadedOnce;

  public RuleManager(RuleManagerOptions options) {
    this.options = Objects.requireNonNull(options);
  }

  /**
   * Loads the files matching {@code patterns} (rule_files globs) and replaces the running set.
   *
   * @throws RuleFileException with every problem of every file; the old rules stay active
   */
  public synchronized void update(List<String> patterns) {
    update(patterns, options);
  }

  /**
   * Like {@link #update(List)}, with the global settings of a reloaded configuration: its {@code
   * evaluation_interval} and {@code rule_query_offset} (for groups without their own) and external
   * labels. Groups whose effective settings change restart with their state, as Prometheus does.
   *
   * @throws RuleFileException with every problem of every file; the old rules and settings stay
   */
  public synchronized void update(
      List<String> patterns,
      Duration evaluationInterval,
      Duration queryOffset,
      Map<String, String> externalLabels) {
    update(
        patterns,
        options
            .withEvaluationInterval(evaluationInterval)
            .withQueryOffset(queryOffset)
            .withExternal(externalLabels, options.externalURL()));
  }

  private void update(List<String> patterns, RuleManagerOptions nextOptions) {
    Map<String, RuleGroup> loaded = load(RuleFileGlobs.expand(patterns), nextOptions);
    Map<String, RuleGroup> next = new LinkedHashMap<>();
    List<RuleGroup> toStart = new ArrayList<>();
    for (RuleGroup group : loaded.values()) {
      RuleGroup old = groups.remove(group.key());
      if (old != null && old.sameSettings(group)) {
        next.put(group.key(), old);
        continue;
      }
      group.setShouldRestore(!loadedOnce);
      if (old != null) {
        old.stop(false);
        group.copyState(old);
      }
      next.put(group.key(), group);
      toStart.add(group);
    }
    for (RuleGroup removed : groups.values()) {
      removed.stop(true);
    }
    groups = next;
    options = nextOptions;
    loadedOnce = true;
    if (started) {
      toStart.forEach(RuleGroup::start);
    }
  }

  private static Map<String, RuleGroup> load(List<Path> files, RuleManagerOptions options) {
    List<String> errors = new ArrayList<>();
    Map<String, RuleGroup> out = new LinkedHashMap<>();
    for (Path file : files) {
      try {
        RuleFile parsed = RuleFileParser.parse(file);
        for (RuleGroupSpec spec : parsed.groups()) {
          RuleGroup group = new RuleGroup(spec, parsed.file(), options);
          out.put(group.key(), group);
        }
      } catch (RuleFileException e) {
        errors.addAll(e.errors());
      }
    }
    if (!errors.isEmpty()) {
      throw new RuleFileException(errors);
    }
    return out;
  }

  /**
   * Starts evaluating every group on its own thread ({@code rules-<group>}); once only, a closed
   * manager stays closed.
   */
  public synchronized void start() {
    if (!started) {
      started = true;
      groups.values().forEach(RuleGroup::start);
    }
  }

  /** Stops every group thread; series are not marked stale (a restart continues them). */
  @Override
  public synchronized void close() {
    for (RuleGroup g : groups.values()) {
      g.stop(false);
    }
    started = false;
  }

  /** The groups in file order, for {@code /api/v1/rules} and {@code /api/v1/alerts}. */
  public synchronized List<GroupSnapshot> snapshot() {
    return groups.values().stream().map(RuleGroup::snapshot).toList();
  }

  /** The groups themselves, for tests that evaluate explicitly instead of starting threads. */
  synchronized List<RuleGroup> groups() {
    return List.copyOf(groups.values());
  }
}
