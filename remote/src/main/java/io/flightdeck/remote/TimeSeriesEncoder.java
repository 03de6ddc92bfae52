package io.flightdeck.remote;

import com.google.protobuf.CodedOutputStream;
import io.flightdeck.model.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Encodes samples as the {@code timeseries} entries (field 1) of a remote-write 1.0 {@code
 * WriteRequest}, one {@code TimeSeries} per sample. Entries concatenate: the bytes of several calls
 * put back to back are one valid {@code WriteRequest}, which is what lets the queue store records
 * and the sender join them into a request without decoding. Stateless and thread-safe.
 */
final class TimeSeriesEncoder {
  private static final int WRITE_REQUEST_TIMESERIES = 1;
  private static final int TIMESERIES_LABELS = 1;
  private static final int TIMESERIES_SAMPLES = 2;
  private static final int LABEL_NAME = 1;
  private static final int LABEL_VALUE = 2;
  private static final int SAMPLE_VALUE = 1;
  private static final int SAMPLE_TIMESTAMP = 2;

  private TimeSeriesEncoder() {}

  /** Samples {@code from} (inclusive) to {@code to} (exclusive) of the given columns. */
  static byte[] encode(Labels[] labels, long[] timestamps, double[] values, int from, int to) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * (to - from));
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      for (int i = from; i < to; i++) {
        writeSeries(out, labels[i], timestamps[i], values[i]);
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("a byte array does not fail", e);
    }
    return bytes.toByteArray();
  }

  private static void writeSeries(CodedOutputStream out, Labels labels, long ts, double value)
      throws IOException {
    int seriesSize = 0;
    for (int i = 0; i < labels.size(); i++) {
      seriesSize += lengthDelimitedSize(TIMESERIES_LABELS, labelSize(labels, i));
    }
    int sampleSize = sampleSize(ts, value);
    seriesSize += lengthDelimitedSize(TIMESERIES_SAMPLES, sampleSize);
    out.writeTag(WRITE_REQUEST_TIMESERIES, 2);
    out.writeUInt32NoTag(seriesSize);
    for (int i = 0; i < labels.size(); i++) {
      out.writeTag(TIMESERIES_LABELS, 2);
      out.writeUInt32NoTag(labelSize(labels, i));
      out.writeString(LABEL_NAME, labels.name(i));
      out.writeString(LABEL_VALUE, labels.value(i));
    }
    out.writeTag(TIMESERIES_SAMPLES, 2);
    out.writeUInt32NoTag(sampleSize);
    out.writeDouble(SAMPLE_VALUE, value);
    out.writeInt64(SAMPLE_TIMESTAMP, ts);
  }

  private static int labelSize(Labels labels, int i) {
    return CodedOutputStream.computeStringSize(LABEL_NAME, labels.name(i))
        + CodedOutputStream.computeStringSize(LABEL_VALUE, labels.value(i));
  }

  /** Value and timestamp are always written, zeros included; decoders accept both forms. */
  private static int sampleSize(long ts, double value) {
    return CodedOutputStream.computeDoubleSize(SAMPLE_VALUE, value)
        + CodedOutputStream.computeInt64Size(SAMPLE_TIMESTAMP, ts);
  }

  private static int lengthDelimitedSize(int field, int size) {
    return CodedOutputStream.computeTagSize(field)
        + CodedOutputStream.computeUInt32SizeNoTag(size)
        + size;
  }
}
