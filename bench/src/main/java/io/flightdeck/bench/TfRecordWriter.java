package io.flightdeck.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Frames payloads as TFRecords (little-endian length, masked CRC32C of the length, payload, masked
 * CRC32C of the payload) onto a stream the caller owns. Not thread-safe.
 */
final class TfRecordWriter {
  private final OutputStream out;
  private final ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
  private final ByteBuffer footer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
  private final MaskedCrc32c crc = new MaskedCrc32c();
  private long bytes;

  TfRecordWriter(OutputStream out) {
    this.out = out;
  }

  void write(byte[] payload, int length) throws IOException {
    header.clear();
    header.putLong(length);
    header.putInt(crc.of(header.array(), 0, 8));
    out.write(header.array());
    out.write(payload, 0, length);
    footer.clear();
    footer.putInt(crc.of(payload, 0, length));
    out.write(footer.array());
    bytes += 16L + length;
  }

  /** Bytes written so far. */
  long bytes() {
    return bytes;
  }
}
