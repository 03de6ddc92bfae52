package io.flightdeck.app;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Writes synthetic TensorBoard event files: TFRecords with masked CRC32C around hand-encoded {@code
 * Event} protobufs holding legacy {@code simple_value} scalars (field numbers from {@code
 * shared/docs/tfevents-format.md}).
 */
final class TfEventsFiles {
  private final ByteArrayOutputStream file = new ByteArrayOutputStream();

  /** Adds an event with one scalar. */
  TfEventsFiles scalar(double wallTime, long step, String tag, float value) throws IOException {
    byte[] summaryValue =
        message(
            out -> {
              out.writeString(1, tag);
              out.writeFloat(2, value);
            });
    byte[] summary = message(out -> out.writeByteArray(1, summaryValue));
    record(
        message(
            out -> {
              out.writeDouble(1, wallTime);
              out.writeInt64(2, step);
              out.writeByteArray(5, summary);
            }));
    return this;
  }

  byte[] bytes() {
    return file.toByteArray();
  }

  private void record(byte[] payload) {
    ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(payload.length);
    header.putInt(maskedCrc(header.array(), 8));
    file.writeBytes(header.array());
    file.writeBytes(payload);
    file.writeBytes(
        ByteBuffer.allocate(4)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(maskedCrc(payload, payload.length))
            .array());
  }

  private static int maskedCrc(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }

  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    fields.write(out);
    out.flush();
    return bytes.toByteArray();
  }
}
