package io.flightdeck.tensorboard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** Test helpers for TFRecord framing: writing records and finding record offsets in a file. */
final class Records {
  private Records() {}

  /** Frames payloads as TFRecords with correct masked CRCs. */
  static byte[] frame(byte[]... payloads) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] payload : payloads) {
      ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
      header.putLong(payload.length);
      header.putInt(MaskedCrc32c.of(header.array(), 0, 8));
      out.writeBytes(header.array());
      out.writeBytes(payload);
      out.writeBytes(
          ByteBuffer.allocate(4)
              .order(ByteOrder.LITTLE_ENDIAN)
              .putInt(MaskedCrc32c.of(payload, 0, payload.length))
              .array());
    }
    return out.toByteArray();
  }

  /** Start offsets of the records of a well-formed file. */
  static List<Integer> offsets(byte[] file) {
    ByteBuffer buffer = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    List<Integer> offsets = new ArrayList<>();
    int at = 0;
    while (at < file.length) {
      offsets.add(at);
      at += 16 + (int) buffer.getLong(at);
    }
    return offsets;
  }

  static Path write(Path dir, String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  static void append(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.APPEND);
  }
}
