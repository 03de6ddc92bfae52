package io.flightdeck.discovery;

import io.flightdeck.config.StaticConfig;
import io.flightdeck.model.Labels;
import java.util.List;

class StaticDiscovererTest extends DiscovererContractTest {
  @Override
  Discoverer create(List<Declared> groups) {
    return new StaticDiscoverer(
        groups.stream()
            .map(g -> new StaticConfig(g.addresses(), Labels.fromMap(g.labels())))
            .toList());
  }
}
