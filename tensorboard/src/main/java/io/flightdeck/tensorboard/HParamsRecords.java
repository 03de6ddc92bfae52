package io.flightdeck.tensorboard;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The record body of an hparams store file (a whole {@link RunHParams}), described in {@code
 * tensorboard/docs/images.md}; the header and framing are {@link RecordFile}'s. Big-endian.
 */
final class HParamsRecords {
  static final byte[] MAGIC = {'F', 'D', 'H', 'P'};
  static final byte VERSION = 1;

  private static final byte NUMBER = 'D';
  private static final byte STRING = 'S';
  private static final byte BOOL = 'B';

  private HParamsRecords() {}

  static byte[] encode(RunHParams h) {
    RecordBodies.Writer w = new RecordBodies.Writer();
    w.putString(h.run()).putString(h.groupName()).putString(h.status());
    strings(w, h.hparamNames());
    strings(w, h.metricTags());
    w.putInt(h.hparams().size());
    for (Map.Entry<String, Object> e : h.hparams().entrySet()) {
      w.putString(e.getKey());
      switch (e.getValue()) {
        case Double d -> w.putByte(NUMBER).putDouble(d);
        case Boolean b -> w.putByte(BOOL).putByte(b ? 1 : 0);
        case Object o -> w.putByte(STRING).putString(o.toString());
      }
    }
    return w.toByteArray();
  }

  /** Decodes a record body; null if it is malformed. */
  static RunHParams decode(ByteBuffer b) {
    try {
      String run = RecordBodies.string(b);
      String groupName = RecordBodies.string(b);
      String status = RecordBodies.string(b);
      List<String> names = strings(b);
      List<String> metrics = strings(b);
      int count = count(b);
      Map<String, Object> hparams = new TreeMap<>();
      for (int i = 0; i < count; i++) {
        String name = RecordBodies.string(b);
        Object value =
            switch (b.get()) {
              case NUMBER -> b.getDouble();
              case BOOL -> b.get() != 0;
              case STRING -> RecordBodies.string(b);
              default -> throw new IllegalArgumentException("unknown hparam value type");
            };
        hparams.put(name, value);
      }
      return b.hasRemaining()
          ? null
          : new RunHParams(run, hparams, groupName, names, metrics, status);
    } catch (BufferUnderflowException | IllegalArgumentException | CharacterCodingException e) {
      return null;
    }
  }

  private static void strings(RecordBodies.Writer w, List<String> strings) {
    w.putInt(strings.size());
    strings.forEach(w::putString);
  }

  private static List<String> strings(ByteBuffer b) throws CharacterCodingException {
    int count = count(b);
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(RecordBodies.string(b));
    }
    return out;
  }

  /** An element count, each element taking at least 4 bytes. */
  private static int count(ByteBuffer b) {
    int count = b.getInt();
    if (count < 0 || count > b.remaining() / 4) {
      throw new IllegalArgumentException("count " + count);
    }
    return count;
  }
}
