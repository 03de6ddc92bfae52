package io.flightdeck.rules;

/** Whether a rule's last evaluation worked, with the words of Prometheus's API. */
public enum RuleHealth {
  UNKNOWN,
  OK,
  ERR;

  public String text() {
    return name().toLowerCase();
  }
}
