package io.flightdeck.config;

import io.flightdeck.model.Labels;
import java.util.List;

/** A fixed group of {@code host:port} targets sharing {@code labels}. */
public record StaticConfig(List<String> targets, Labels labels) {
  public StaticConfig {
    targets = List.copyOf(targets);
  }
}
