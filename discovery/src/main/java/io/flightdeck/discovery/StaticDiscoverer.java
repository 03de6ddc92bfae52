package io.flightdeck.discovery;

import io.flightdeck.config.StaticConfig;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;

/** {@code static_configs}: the groups are known up front and never change. */
final class StaticDiscoverer implements Discoverer {
  private final List<TargetGroup> groups;

  StaticDiscoverer(List<StaticConfig> configs) {
    List<TargetGroup> groups = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      StaticConfig config = configs.get(i);
      List<Labels> targets = new ArrayList<>();
      for (String address : config.targets()) {
        targets.add(Labels.of(TargetGroup.ADDRESS, address));
      }
      // Prometheus names static groups by their index.
      groups.add(new TargetGroup(Integer.toString(i), targets, config.labels()));
    }
    this.groups = List.copyOf(groups);
  }

  @Override
  public void start(Listener listener) {
    listener.groups(groups);
  }

  @Override
  public String lastError() {
    return "";
  }

  @Override
  public void close() {}
}
