package io.flightdeck.demo;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Writes one TensorBoard event file ({@code events.out.tfevents.*}) the way PyTorch's SummaryWriter
 * does: legacy {@code simple_value} scalars and {@code histo} histograms, text as a string tensor
 * under {@code <tag>/text_summary}, and hparams as a {@code _hparams_/session_start_info} value.
 * Each event is flushed at once so a watcher sees it live. Not thread-safe.
 */
final class EventFileWriter implements AutoCloseable {
  private final OutputStream out;

  EventFileWriter(Path runDir, double wallTime) throws IOException {
    Files.createDirectories(runDir);
    out =
        Files.newOutputStream(
            runDir.resolve("events.out.tfevents." + (long) wallTime + ".flightdeck-demo"));
    write(event(wallTime, 0, e -> e.writeString(3, "brain.Event:2")));
  }

  void scalar(String tag, long step, double wallTime, double value) throws IOException {
    byte[] v =
        message(
            m -> {
              m.writeString(1, tag);
              m.writeFloat(2, (float) value);
            });
    write(summary(wallTime, step, v));
  }

  /** A histogram of {@code values} over {@code bucketLimits} (the last limit is +max). */
  void histogram(String tag, long step, double wallTime, double[] values, double[] bucketLimits)
      throws IOException {
    double[] counts = new double[bucketLimits.length];
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double sum = 0;
    double squares = 0;
    for (double x : values) {
      int i = 0;
      while (i < bucketLimits.length - 1 && x > bucketLimits[i]) {
        i++;
      }
      counts[i]++;
      min = Math.min(min, x);
      max = Math.max(max, x);
      sum += x;
      squares += x * x;
    }
    double lo = min;
    double hi = max;
    double total = sum;
    double sq = squares;
    byte[] histo =
        message(
            h -> {
              h.writeDouble(1, lo);
              h.writeDouble(2, hi);
              h.writeDouble(3, values.length);
              h.writeDouble(4, total);
              h.writeDouble(5, sq);
              h.writeByteArray(6, packed(bucketLimits));
              h.writeByteArray(7, packed(counts));
            });
    byte[] v =
        message(
            m -> {
              m.writeString(1, tag);
              m.writeByteArray(5, histo);
            });
    write(summary(wallTime, step, v));
  }

  void text(String tag, long step, double wallTime, String text) throws IOException {
    byte[] shape = message(s -> s.writeByteArray(2, message(d -> d.writeInt64(1, 1))));
    byte[] tensor =
        message(
            t -> {
              t.writeInt32(1, 7); // DT_STRING
              t.writeByteArray(2, shape);
              t.writeBytes(8, ByteString.copyFromUtf8(text));
            });
    byte[] v =
        message(
            m -> {
              m.writeString(1, tag + "/text_summary");
              m.writeByteArray(9, pluginMetadata("text", new byte[0]));
              m.writeByteArray(8, tensor);
            });
    write(summary(wallTime, step, v));
  }

  /** The run's hyperparameters (numbers and strings) as an hparams session start. */
  void hparams(double wallTime, Map<String, Object> hparams) throws IOException {
    byte[] start =
        message(
            s -> {
              for (Map.Entry<String, Object> h : hparams.entrySet()) {
                byte[] value =
                    message(
                        v -> {
                          if (h.getValue() instanceof Number n) {
                            v.writeDouble(2, n.doubleValue());
                          } else {
                            v.writeString(3, h.getValue().toString());
                          }
                        });
                s.writeByteArray(
                    1,
                    message(
                        entry -> {
                          entry.writeString(1, h.getKey());
                          entry.writeByteArray(2, value);
                        }));
              }
              s.writeDouble(5, wallTime);
            });
    byte[] content =
        message(
            p -> {
              p.writeInt32(1, 0);
              p.writeByteArray(3, start);
            });
    byte[] v =
        message(
            m -> {
              m.writeString(1, "_hparams_/session_start_info");
              m.writeByteArray(9, pluginMetadata("hparams", content));
            });
    write(summary(wallTime, 0, v));
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  private static byte[] pluginMetadata(String plugin, byte[] content) throws IOException {
    byte[] data =
        message(
            d -> {
              d.writeString(1, plugin);
              d.writeByteArray(2, content);
            });
    return message(m -> m.writeByteArray(1, data));
  }

  private static byte[] summary(double wallTime, long step, byte[] value) throws IOException {
    byte[] summary = message(s -> s.writeByteArray(1, value));
    return event(wallTime, step, e -> e.writeByteArray(5, summary));
  }

  private static byte[] event(double wallTime, long step, Fields body) throws IOException {
    return message(
        e -> {
          e.writeDouble(1, wallTime);
          if (step != 0) {
            e.writeInt64(2, step);
          }
          body.write(e);
        });
  }

  private static byte[] packed(double[] values) {
    ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      b.putDouble(v);
    }
    return b.array();
  }

  @FunctionalInterface
  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream coded = CodedOutputStream.newInstance(bytes);
    fields.write(coded);
    coded.flush();
    return bytes.toByteArray();
  }

  /** TFRecord framing: length, masked CRC of the length, payload, masked CRC of the payload. */
  private void write(byte[] payload) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(payload.length);
    header.putInt(maskedCrc(header.array(), 8));
    ByteBuffer footer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    footer.putInt(maskedCrc(payload, payload.length));
    out.write(header.array());
    out.write(payload);
    out.write(footer.array());
    out.flush();
  }

  private static int maskedCrc(byte[] data, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, length);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }
}
