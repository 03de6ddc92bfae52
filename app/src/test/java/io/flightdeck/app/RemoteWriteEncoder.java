package io.flightdeck.app;

import com.google.protobuf.CodedOutputStream;
import io.flightdeck.model.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * Encodes remote-write 1.0 bodies as a sender does: a protobuf {@code prometheus.WriteRequest},
 * snappy block-compressed. Written by hand from the field numbers in shared/docs/remote-write.md so
 * the tests do not share the receiver's decoder.
 */
final class RemoteWriteEncoder {
  /** One series of a request; {@code timestamps} and {@code values} are parallel. */
  record TimeSeries(Labels labels, long[] timestamps, double[] values) {}

  private RemoteWriteEncoder() {}

  static byte[] encode(List<TimeSeries> series) {
    try {
      return Snappy.compress(message(request -> writeSeries(request, series)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeSeries(CodedOutputStream request, List<TimeSeries> series)
      throws IOException {
    for (TimeSeries ts : series) {
      request.writeByteArray(1, message(out -> writeOne(out, ts)));
    }
  }

  private static void writeOne(CodedOutputStream out, TimeSeries ts) throws IOException {
    Labels labels = ts.labels();
    for (int i = 0; i < labels.size(); i++) {
      String name = labels.name(i);
      String value = labels.value(i);
      out.writeByteArray(
          1,
          message(
              label -> {
                label.writeString(1, name);
                label.writeString(2, value);
              }));
    }
    for (int i = 0; i < ts.timestamps().length; i++) {
      double value = ts.values()[i];
      long timestamp = ts.timestamps()[i];
      out.writeByteArray(
          2,
          message(
              sample -> {
                sample.writeDouble(1, value);
                sample.writeInt64(2, timestamp);
              }));
    }
  }

  private interface Body {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    body.write(out);
    out.flush();
    return bytes.toByteArray();
  }
}
