package io.flightdeck.model.relabel;

import io.flightdeck.model.GoQuote;
import java.util.Locale;

/** What one relabelling step does; {@link #text()} is the name used in configuration files. */
public enum RelabelAction {
  REPLACE,
  KEEP,
  DROP,
  KEEPEQUAL,
  DROPEQUAL,
  HASHMOD,
  LABELMAP,
  LABELDROP,
  LABELKEEP,
  LOWERCASE,
  UPPERCASE;

  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The action named {@code text}, case-insensitively as Prometheus reads it.
   *
   * @throws IllegalArgumentException with Prometheus's message for an unknown name
   */
  public static RelabelAction parse(String text) {
    for (RelabelAction action : values()) {
      if (action.text().equals(text.toLowerCase(Locale.ROOT))) {
        return action;
      }
    }
    throw new IllegalArgumentException("unknown relabel action " + GoQuote.quote(text));
  }

  @Override
  public String toString() {
    return text();
  }
}
