package io.flightdeck.tensorboard;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The field encodings the side stores' record bodies share: big-endian numbers, {@code string} =
 * {@code u32} byte length + UTF-8, {@code bytes} = {@code u32} length + bytes.
 */
final class RecordBodies {
  private RecordBodies() {}

  /** Builds a body field by field. */
  static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    Writer putLong(long v) {
      return write(() -> out.writeLong(v));
    }

    Writer putDouble(double v) {
      return write(() -> out.writeDouble(v));
    }

    Writer putInt(int v) {
      return write(() -> out.writeInt(v));
    }

    Writer putByte(int v) {
      return write(() -> out.writeByte(v));
    }

    Writer putString(String s) {
      return putBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    Writer putBytes(byte[] b) {
      return write(
          () -> {
            out.writeInt(b.length);
            out.write(b);
          });
    }

    byte[] toByteArray() {
      return bytes.toByteArray();
    }

    private Writer write(Field field) {
      try {
        field.write();
      } catch (IOException e) {
        throw new UncheckedIOException("writing to memory cannot fail", e);
      }
      return this;
    }

    private interface Field {
      void write() throws IOException;
    }
  }

  /**
   * Reads a {@code string} field.
   *
   * @throws IllegalArgumentException if its length runs past the body
   * @throws CharacterCodingException if it is not UTF-8
   */
  static String string(ByteBuffer b) throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes(b)))
        .toString();
  }

  /**
   * Reads a {@code bytes} field.
   *
   * @throws IllegalArgumentException if its length runs past the body
   */
  static byte[] bytes(ByteBuffer b) {
    int length = b.getInt();
    if (length < 0 || length > b.remaining()) {
      throw new IllegalArgumentException("field length " + length);
    }
    byte[] out = new byte[length];
    b.get(out);
    return out;
  }
}
