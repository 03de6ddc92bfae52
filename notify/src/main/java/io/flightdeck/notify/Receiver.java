package io.flightdeck.notify;

import java.util.List;

/** A named set of integrations that a route delivers to. */
record Receiver(String name, List<IntegrationConfig> integrations) {
  Receiver {
    integrations = List.copyOf(integrations);
  }
}
