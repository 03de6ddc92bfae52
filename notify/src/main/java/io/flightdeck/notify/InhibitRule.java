package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.util.Collection;
import java.util.List;

/**
 * Mutes alerts matching {@code target} while another firing alert matches {@code source} and has
 * the same values (absent counts as empty) for the {@code equal} labels.
 */
record InhibitRule(List<Matcher> source, List<Matcher> target, List<String> equal) {
  InhibitRule {
    source = List.copyOf(source);
    target = List.copyOf(target);
    equal = List.copyOf(equal);
  }

  boolean inhibits(Labels alert, Collection<NotifyAlert> firing) {
    if (!AlertMatchers.matchAll(target, alert)) {
      return false;
    }
    for (NotifyAlert candidate : firing) {
      Labels s = candidate.labels();
      // An alert never inhibits itself, even when it matches both sides.
      if (!s.equals(alert) && AlertMatchers.matchAll(source, s) && sameEqualLabels(s, alert)) {
        return true;
      }
    }
    return false;
  }

  private boolean sameEqualLabels(Labels a, Labels b) {
    for (String name : equal) {
      if (!a.get(name).equals(b.get(name))) {
        return false;
      }
    }
    return true;
  }
}
