package io.flightdeck.tensorboard;

import java.io.ByteArrayOutputStream;

/** Framed event records for tests that write event files the way a training job does. */
final class TfEvents {
  static final double T0 = 1_700_000_000.0;
  private static final int DT_STRING = 7;

  private TfEvents() {}

  static byte[] version() {
    return Records.frame(EventBytes.fileVersionEvent());
  }

  /** A legacy {@code simple_value} scalar at wall time {@code T0 + second}. */
  static byte[] scalar(String tag, long step, double second, float value) {
    return Records.frame(
        EventBytes.summaryEvent(
            T0 + second, step, EventBytes.value(tag, null, null, v -> v.fixed32Float(2, value))));
  }

  /**
   * A text summary as PyTorch writes it: a one-element string tensor of the {@code text} plugin.
   */
  static byte[] text(String tag, long step, double second, String value) {
    return Records.frame(
        EventBytes.summaryEvent(
            T0 + second,
            step,
            EventBytes.value(
                tag,
                "text",
                new byte[0],
                v ->
                    v.message(
                        8,
                        t ->
                            t.varint(1, DT_STRING)
                                .message(2, s -> s.message(2, d -> d.varint(1, 1)))
                                .string(8, value)))));
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
