package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * Builds protobuf bytes field by field, with the field numbers of TensorBoard's protos, for
 * synthetic events (TF2/Keras encodings that no public fixture has).
 */
final class EventBytes {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

  static byte[] message(Consumer<EventBytes> fields) {
    EventBytes m = new EventBytes();
    fields.accept(m);
    return m.toBytes();
  }

  EventBytes varint(int field, long value) {
    return io(() -> out.writeInt64(field, value));
  }

  EventBytes fixed32Float(int field, float value) {
    return io(() -> out.writeFloat(field, value));
  }

  EventBytes fixed64Double(int field, double value) {
    return io(() -> out.writeDouble(field, value));
  }

  EventBytes bytes(int field, byte[] value) {
    return io(() -> out.writeByteArray(field, value));
  }

  EventBytes string(int field, String value) {
    return io(() -> out.writeString(field, value));
  }

  EventBytes message(int field, Consumer<EventBytes> fields) {
    return bytes(field, message(fields));
  }

  EventBytes packedDoubles(int field, double... values) {
    return bytes(
        field,
        message(
            m -> {
              for (double v : values) {
                m.io(() -> m.out.writeDoubleNoTag(v));
              }
            }));
  }

  EventBytes packedFloats(int field, float... values) {
    return bytes(
        field,
        message(
            m -> {
              for (float v : values) {
                m.io(() -> m.out.writeFloatNoTag(v));
              }
            }));
  }

  byte[] toBytes() {
    return io(out::flush).bytes.toByteArray();
  }

  /** An Event with wall time, step and one summary holding the given values. */
  static byte[] summaryEvent(double wallTime, long step, byte[]... values) {
    return message(
        e -> {
          e.fixed64Double(1, wallTime).varint(2, step);
          e.message(
              5,
              s -> {
                for (byte[] value : values) {
                  s.bytes(1, value);
                }
              });
        });
  }

  /** A Summary.Value with a tag, optional plugin metadata and one more field set by the caller. */
  static byte[] value(String tag, String plugin, byte[] pluginContent, Consumer<EventBytes> data) {
    return message(
        v -> {
          v.string(1, tag);
          if (plugin != null) {
            v.message(9, md -> md.message(1, pd -> pd.string(1, plugin).bytes(2, pluginContent)));
          }
          data.accept(v);
        });
  }

  static byte[] fileVersionEvent() {
    return message(e -> e.fixed64Double(1, 1.7e9).string(3, "brain.Event:2"));
  }

  static ByteString littleEndianFloats(float... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) {
      b.putFloat(v);
    }
    return ByteString.copyFrom(b.array());
  }

  static ByteString littleEndianDoubles(double... values) {
    ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      b.putDouble(v);
    }
    return ByteString.copyFrom(b.array());
  }

  private interface IoAction {
    void run() throws IOException;
  }

  private EventBytes io(IoAction action) {
    try {
      action.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }
}
