package io.flightdeck.bench;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * Encodes remote-write 1.0 request bodies by hand: a snappy-block-compressed {@code
 * prometheus.WriteRequest} (see shared/docs/remote-write.md). Each series' labels are encoded once
 * by {@link #encodeLabels} and reused for every request, as they never change.
 */
final class RemoteWriteEncoder {

  private static final int WRITE_REQUEST_TIMESERIES = 1;
  private static final int TIMESERIES_LABELS = 1;
  private static final int TIMESERIES_SAMPLES = 2;
  private static final int LABEL_NAME = 1;
  private static final int LABEL_VALUE = 2;
  private static final int SAMPLE_VALUE = 1;
  private static final int SAMPLE_TIMESTAMP = 2;

  private RemoteWriteEncoder() {}

  /** The {@code TimeSeries.labels} fields for labels already sorted by name. */
  static byte[] encodeLabels(Map<String, String> sortedLabels) {
    int size = 0;
    for (Map.Entry<String, String> label : sortedLabels.entrySet()) {
      size += lengthDelimitedSize(TIMESERIES_LABELS, labelSize(label));
    }
    byte[] out = new byte[size];
    CodedOutputStream stream = CodedOutputStream.newInstance(out);
    try {
      for (Map.Entry<String, String> label : sortedLabels.entrySet()) {
        stream.writeTag(TIMESERIES_LABELS, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        stream.writeUInt32NoTag(labelSize(label));
        stream.writeString(LABEL_NAME, label.getKey());
        stream.writeString(LABEL_VALUE, label.getValue());
      }
      stream.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * A compressed request holding one sample per series: series {@code i} gets {@code values[i]} at
   * {@code timestampMs}, labelled by {@code labels.get(i)} from {@link #encodeLabels}.
   */
  static byte[] encodeRequest(List<byte[]> labels, double[] values, long timestampMs) {
    int sampleSize =
        CodedOutputStream.computeDoubleSize(SAMPLE_VALUE, 0)
            + CodedOutputStream.computeInt64Size(SAMPLE_TIMESTAMP, timestampMs);
    int size = 0;
    for (byte[] labelFields : labels) {
      size += lengthDelimitedSize(WRITE_REQUEST_TIMESERIES, seriesSize(labelFields, sampleSize));
    }
    byte[] out = new byte[size];
    CodedOutputStream stream = CodedOutputStream.newInstance(out);
    try {
      for (int i = 0; i < labels.size(); i++) {
        byte[] labelFields = labels.get(i);
        stream.writeTag(WRITE_REQUEST_TIMESERIES, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        stream.writeUInt32NoTag(seriesSize(labelFields, sampleSize));
        stream.writeRawBytes(labelFields);
        stream.writeTag(TIMESERIES_SAMPLES, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        stream.writeUInt32NoTag(sampleSize);
        stream.writeDouble(SAMPLE_VALUE, values[i]);
        stream.writeInt64(SAMPLE_TIMESTAMP, timestampMs);
      }
      stream.checkNoSpaceLeft();
      return Snappy.compress(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int labelSize(Map.Entry<String, String> label) {
    return CodedOutputStream.computeStringSize(LABEL_NAME, label.getKey())
        + CodedOutputStream.computeStringSize(LABEL_VALUE, label.getValue());
  }

  private static int seriesSize(byte[] labelFields, int sampleSize) {
    return labelFields.length + lengthDelimitedSize(TIMESERIES_SAMPLES, sampleSize);
  }

  private static int lengthDelimitedSize(int field, int length) {
    return CodedOutputStream.computeTagSize(field)
        + CodedOutputStream.computeUInt32SizeNoTag(length)
        + length;
  }
}
