package io.flightdeck.app;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Writes synthetic TensorBoard event files: TFRecords with masked CRC32C around hand-encoded {@code
 * Event} protobufs holding legacy {@code simple_value} scalars, legacy histograms, text samples,
 * legacy images and hparams session starts (field numbers from {@code
 * shared/docs/tfevents-format.md} and TensorBoard's {@code plugins/hparams/api.proto}).
 */
final class TfEventsFiles {
  private static final int DT_STRING = 7;

  private final ByteArrayOutputStream file = new ByteArrayOutputStream();

  /** Adds an event with one scalar. */
  TfEventsFiles scalar(double wallTime, long step, String tag, float value) throws IOException {
    return event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeFloat(2, value);
        });
  }

  /**
   * Adds an event with a legacy {@code histo} histogram: {@code counts[i]} up to {@code limits[i]}.
   */
  TfEventsFiles histogram(
      double wallTime, long step, String tag, double sum, double[] limits, double[] counts)
      throws IOException {
    return histogram(wallTime, step, tag, 0, 0, sum, limits, counts);
  }

  /** As above, with the histogram's minimum and maximum. */
  TfEventsFiles histogram(
      double wallTime,
      long step,
      String tag,
      double min,
      double max,
      double sum,
      double[] limits,
      double[] counts)
      throws IOException {
    byte[] histo =
        message(
            out -> {
              out.writeDouble(1, min);
              out.writeDouble(2, max);
              out.writeDouble(3, Arrays.stream(counts).sum());
              out.writeDouble(4, sum);
              packedDoubles(out, 6, limits);
              packedDoubles(out, 7, counts);
            });
    return event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeByteArray(5, histo);
        });
  }

  /** Adds an event with a text sample as PyTorch writes it: a one-element string tensor. */
  TfEventsFiles text(double wallTime, long step, String tag, String text) throws IOException {
    byte[] pluginData = message(out -> out.writeString(1, "text"));
    byte[] metadata = message(out -> out.writeByteArray(1, pluginData));
    byte[] dim = message(out -> out.writeInt64(1, 1));
    byte[] shape = message(out -> out.writeByteArray(2, dim));
    byte[] tensor =
        message(
            out -> {
              out.writeEnum(1, DT_STRING);
              out.writeByteArray(2, shape);
              out.writeByteArray(8, text.getBytes(StandardCharsets.UTF_8));
            });
    return event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeByteArray(9, metadata);
          out.writeByteArray(8, tensor);
        });
  }

  /** Adds an event with a legacy {@code Summary.Image}. */
  TfEventsFiles image(double wallTime, long step, String tag, int width, int height, byte[] encoded)
      throws IOException {
    byte[] image =
        message(
            out -> {
              out.writeInt32(1, height);
              out.writeInt32(2, width);
              out.writeInt32(3, 4);
              out.writeByteArray(4, encoded);
            });
    return event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeByteArray(4, image);
        });
  }

  /**
   * Adds PyTorch's {@code add_hparams} session start: numeric hyperparameters and a group name, in
   * the plugin data of a value without data.
   */
  TfEventsFiles hparamsSessionStart(double wallTime, String group, String name, double value)
      throws IOException {
    byte[] number = message(out -> out.writeDouble(2, value));
    byte[] entry =
        message(
            out -> {
              out.writeString(1, name);
              out.writeByteArray(2, number);
            });
    byte[] start =
        message(
            out -> {
              out.writeByteArray(1, entry);
              out.writeString(4, group);
            });
    byte[] content = message(out -> out.writeByteArray(3, start));
    byte[] pluginData =
        message(
            out -> {
              out.writeString(1, "hparams");
              out.writeByteArray(2, content);
            });
    byte[] metadata = message(out -> out.writeByteArray(1, pluginData));
    return event(
        wallTime,
        0,
        out -> {
          out.writeString(1, "_hparams_/session_start_info");
          out.writeByteArray(9, metadata);
        });
  }

  /** An event whose summary holds the one {@code Summary.Value} that {@code value} writes. */
  private TfEventsFiles event(double wallTime, long step, Fields value) throws IOException {
    byte[] summaryValue = message(value);
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

  private static void packedDoubles(CodedOutputStream out, int field, double[] values)
      throws IOException {
    out.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(values.length * Double.BYTES);
    for (double v : values) {
      out.writeDoubleNoTag(v);
    }
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
