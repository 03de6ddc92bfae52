package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One alert as Alertmanager's API v2 receives it. Immutable.
 *
 * @param startsAtMs when the alert became active, epoch milliseconds
 * @param endsAtMs when it resolved or, while firing, until when it is valid; 0 when unknown (then
 *     the receiving side applies its resolve timeout)
 * @param generatorUrl link to the expression that produced the alert; may be empty
 */
public record NotifyAlert(
    Labels labels, Labels annotations, long startsAtMs, long endsAtMs, String generatorUrl) {
  public NotifyAlert {
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(annotations, "annotations");
    generatorUrl = generatorUrl == null ? "" : generatorUrl;
  }

  /** Whether the alert is resolved at {@code nowMs}: its end time has passed. */
  public boolean resolvedAt(long nowMs) {
    return endsAtMs > 0 && endsAtMs <= nowMs;
  }

  NotifyAlert withLabels(Labels newLabels) {
    return new NotifyAlert(newLabels, annotations, startsAtMs, endsAtMs, generatorUrl);
  }

  NotifyAlert withEndsAt(long newEndsAtMs) {
    return new NotifyAlert(labels, annotations, startsAtMs, newEndsAtMs, generatorUrl);
  }

  /**
   * Alertmanager's fingerprint of the label set, as its webhook and API show it: FNV-1a (64 bit)
   * over each name and value in name order, each followed by the byte 0xff, as 16 hex digits. Also
   * the alert's key in the notification log.
   */
  String fingerprint() {
    long[] hash = {FNV_OFFSET};
    labels.forEach(
        (name, value) -> {
          hash[0] = fnv(fnv(hash[0], name), value);
        });
    return String.format("%016x", hash[0]);
  }

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final int SEPARATOR = 0xff;

  /** Adds the UTF-8 bytes of {@code text} and then the separator byte. */
  private static long fnv(long hash, String text) {
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      hash = (hash ^ (b & 0xff)) * FNV_PRIME;
    }
    return (hash ^ SEPARATOR) * FNV_PRIME;
  }
}
