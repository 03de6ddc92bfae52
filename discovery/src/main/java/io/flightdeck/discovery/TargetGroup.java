package io.flightdeck.discovery;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Objects;

/**
 * Targets that share labels, as Prometheus's discovery reports them. Immutable.
 *
 * @param source identifies the group within its discoverer (a file and index, a URL and index)
 * @param targets one label set per target, each with at least {@code __address__}
 * @param labels labels common to every target, {@code __meta_*} ones included
 */
public record TargetGroup(String source, List<Labels> targets, Labels labels) {
  public static final String ADDRESS = "__address__";

  public TargetGroup {
    Objects.requireNonNull(source, "source");
    targets = List.copyOf(targets);
    Objects.requireNonNull(labels, "labels");
  }
}
