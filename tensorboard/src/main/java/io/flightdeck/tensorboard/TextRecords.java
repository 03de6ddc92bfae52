package io.flightdeck.tensorboard;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The byte layout of a text store file, described in {@code tensorboard/docs/text-store.md}: a
 * header (magic, version, logdir, CRC) and then framed records (length, body, CRC). Big-endian.
 */
final class TextRecords {
  static final byte[] MAGIC = {'F', 'D', 'T', 'X'};
  static final byte VERSION = 1;

  /** Magic, version and the logdir's length. */
  static final int HEADER_PREFIX_BYTES = MAGIC.length + 1 + 4;

  /** The length before a record's body and the CRC after it. */
  static final int FRAME_BYTES = 8;

  /** A sane cap on one record, so a damaged length never makes the reader allocate gigabytes. */
  static final int MAX_BODY_BYTES = 64 << 20;

  static final int MAX_LOGDIR_BYTES = 64 << 10;

  private TextRecords() {}

  static byte[] header(String logdir) {
    byte[] name = logdir.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(HEADER_PREFIX_BYTES + name.length + 4);
    b.put(MAGIC).put(VERSION).putInt(name.length).put(name);
    b.putInt(crc(b.array(), 0, b.position()));
    return b.array();
  }

  /** The logdir's byte length named by a header prefix, or -1 if the prefix is not ours. */
  static int logdirLength(byte[] prefix) {
    ByteBuffer b = ByteBuffer.wrap(prefix);
    byte[] magic = new byte[MAGIC.length];
    b.get(magic);
    if (!Arrays.equals(magic, MAGIC) || b.get() != VERSION) {
      return -1;
    }
    int length = b.getInt();
    return length < 0 || length > MAX_LOGDIR_BYTES ? -1 : length;
  }

  /** The logdir of a whole header, or null if its CRC does not match. */
  static String logdir(byte[] header) {
    int end = header.length - 4;
    if (crc(header, 0, end) != ByteBuffer.wrap(header).getInt(end)) {
      return null;
    }
    return new String(
        header, HEADER_PREFIX_BYTES, end - HEADER_PREFIX_BYTES, StandardCharsets.UTF_8);
  }

  /** A whole framed record. */
  static byte[] frame(String run, TextPoint point) {
    List<byte[]> strings = new ArrayList<>(point.values().size() + 2);
    strings.add(run.getBytes(StandardCharsets.UTF_8));
    strings.add(point.tag().getBytes(StandardCharsets.UTF_8));
    point.values().forEach(v -> strings.add(v.getBytes(StandardCharsets.UTF_8)));
    int body = 8 + 8 + 4;
    for (byte[] s : strings) {
      body += 4 + s.length;
    }
    ByteBuffer b = ByteBuffer.allocate(FRAME_BYTES + body);
    b.putInt(body).putLong(point.step()).putDouble(point.wallTimeSeconds());
    put(b, strings.get(0));
    put(b, strings.get(1));
    b.putInt(point.values().size());
    for (byte[] s : strings.subList(2, strings.size())) {
      put(b, s);
    }
    b.putInt(crc(b.array(), 0, b.position()));
    return b.array();
  }

  /**
   * Checks and decodes a record given its length field followed by body and CRC; null if the CRC
   * does not match or the body is malformed.
   */
  static TextSample decode(byte[] framed) {
    int end = framed.length - 4;
    if (crc(framed, 0, end) != ByteBuffer.wrap(framed).getInt(end)) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(framed, 4, end - 4);
    try {
      long step = b.getLong();
      double wallTime = b.getDouble();
      String run = string(b);
      String tag = string(b);
      int count = b.getInt();
      if (count < 0 || count > b.remaining() / 4) {
        return null;
      }
      List<String> values = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        values.add(string(b));
      }
      return b.hasRemaining() ? null : new TextSample(run, tag, step, wallTime, values);
    } catch (BufferUnderflowException | IllegalArgumentException | CharacterCodingException e) {
      return null;
    }
  }

  private static void put(ByteBuffer b, byte[] s) {
    b.putInt(s.length).put(s);
  }

  private static String string(ByteBuffer b) throws CharacterCodingException {
    int length = b.getInt();
    if (length < 0 || length > b.remaining()) {
      throw new IllegalArgumentException("string length " + length);
    }
    ByteBuffer bytes = b.slice(b.position(), length);
    b.position(b.position() + length);
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .decode(bytes)
        .toString();
  }

  private static int crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
