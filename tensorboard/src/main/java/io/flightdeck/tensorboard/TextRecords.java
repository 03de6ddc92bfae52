package io.flightdeck.tensorboard;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;

/**
 * The record body of a text store file, described in {@code tensorboard/docs/text-store.md}; the
 * header and framing are {@link RecordFile}'s. Big-endian.
 */
final class TextRecords {
  static final byte[] MAGIC = {'F', 'D', 'T', 'X'};
  static final byte VERSION = 1;

  private TextRecords() {}

  static byte[] encode(String run, TextPoint point) {
    RecordBodies.Writer w = new RecordBodies.Writer();
    w.putLong(point.step())
        .putDouble(point.wallTimeSeconds())
        .putString(run)
        .putString(point.tag());
    w.putInt(point.values().size());
    point.values().forEach(w::putString);
    return w.toByteArray();
  }

  /** Decodes a record body; null if it is malformed. */
  static TextSample decode(ByteBuffer b) {
    try {
      long step = b.getLong();
      double wallTime = b.getDouble();
      String run = RecordBodies.string(b);
      String tag = RecordBodies.string(b);
      int count = b.getInt();
      if (count < 0 || count > b.remaining() / 4) {
        return null;
      }
      List<String> values = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        values.add(RecordBodies.string(b));
      }
      return b.hasRemaining() ? null : new TextSample(run, tag, step, wallTime, values);
    } catch (BufferUnderflowException | IllegalArgumentException | CharacterCodingException e) {
      return null;
    }
  }
}
