package io.flightdeck.remote;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.flightdeck.model.MetricType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Streams a remote-write 1.0 {@code prometheus.WriteRequest} into a {@link WriteHandler} without
 * building message objects: the decoder walks the protobuf fields with protobuf-java's {@link
 * CodedInputStream}, reusing one label list and passing samples as primitives. Field numbers are in
 * {@code shared/docs/remote-write.md}; unknown fields are skipped as protobuf requires, and packed
 * and unpacked encodings are both accepted where they apply.
 */
final class WriteRequestDecoder {
  /** Receives the decoded content. Label lists are reused: copy what must be kept. */
  interface WriteHandler {
    /**
     * Offers the raw bytes of a series' label fields, {@code body[from, to)}, before they are
     * decoded: returning true means the handler knows these labels already, and {@link #series} is
     * not called for this series.
     */
    default boolean knownSeries(byte[] body, int from, int to) {
      return false;
    }

    /** Starts a series; {@code labels} holds name, value, name, value... as decoded. */
    void series(List<String> labels);

    /**
     * Starts a series whose labels are not valid UTF-8, its bad bytes replaced by U+FFFD in {@code
     * labels}: its samples are to be skipped.
     */
    void invalidSeries(List<String> labels);

    void sample(long timestampMillis, double value);

    /** A native histogram sample, which this store does not keep yet. */
    void histogram();

    void metadata(String metricFamily, MetricType type, String help, String unit);
  }

  private static final MetricType[] TYPES = {
    MetricType.UNKNOWN, MetricType.COUNTER, MetricType.GAUGE, MetricType.HISTOGRAM,
    MetricType.GAUGEHISTOGRAM, MetricType.SUMMARY, MetricType.INFO, MetricType.STATESET
  };

  private final List<String> labels = new ArrayList<>();
  private long timestamp;

  /** Set when a string of the current series or metadata entry is not valid UTF-8. */
  private boolean invalidText;

  void decode(byte[] body, int length, WriteHandler handler) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(body, 0, length);
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return;
      }
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int size = in.readRawVarint32();
          int at = in.getTotalBytesRead();
          if (size < 0 || size > length - at) {
            throw new InvalidProtocolBufferException(
                "a time series runs past the end of the request");
          }
          timeSeries(body, at, size, handler);
          in.skipRawBytes(size);
        }
        case (3 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int limit = in.pushLimit(in.readRawVarint32());
          metadata(in, handler);
          in.popLimit(limit);
        }
        default -> skip(in, tag);
      }
    }
  }

  /**
   * Reads one TimeSeries in two passes over its bytes: labels first (protobuf allows any field
   * order, so samples could precede them), then samples and histograms.
   */
  private void timeSeries(byte[] body, int offset, int length, WriteHandler handler)
      throws IOException {
    // Pass 1 locates the label fields; when they are contiguous (as every sender writes them),
    // the handler may recognise their bytes and spare decoding the strings.
    CodedInputStream in = CodedInputStream.newInstance(body, offset, length);
    int labelsFrom = -1;
    int labelsTo = -1;
    boolean contiguous = true;
    boolean otherFieldAfterLabels = false;
    while (true) {
      int position = in.getTotalBytesRead();
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        if (labelsFrom < 0) {
          labelsFrom = position;
        } else if (otherFieldAfterLabels) {
          contiguous = false;
        }
        skip(in, tag);
        labelsTo = in.getTotalBytesRead();
      } else {
        otherFieldAfterLabels |= labelsFrom >= 0;
        skip(in, tag);
      }
    }
    boolean known =
        contiguous
            && labelsFrom >= 0
            && handler.knownSeries(body, offset + labelsFrom, offset + labelsTo);
    if (!known) {
      labels.clear();
      invalidText = false;
      in = CodedInputStream.newInstance(body, offset, length);
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        if (tag == ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
          int limit = in.pushLimit(in.readRawVarint32());
          label(in);
          in.popLimit(limit);
        } else {
          skip(in, tag);
        }
      }
      if (invalidText) {
        handler.invalidSeries(labels);
      } else {
        handler.series(labels);
      }
    }
    in = CodedInputStream.newInstance(body, offset, length);
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return;
      }
      if (tag == ((2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        int limit = in.pushLimit(in.readRawVarint32());
        double value = sample(in);
        in.popLimit(limit);
        handler.sample(timestamp, value);
      } else if (tag == ((4 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        in.skipField(tag);
        handler.histogram();
      } else {
        skip(in, tag);
      }
    }
  }

  private void label(CodedInputStream in) throws IOException {
    String name = "";
    String value = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> name = text(in);
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> value = text(in);
        default -> skip(in, tag);
      }
    }
    labels.add(name);
    labels.add(value);
  }

  private double sample(CodedInputStream in) throws IOException {
    double value = 0;
    timestamp = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return value;
      }
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_FIXED64 -> value = in.readDouble();
        case (2 << 3) | WireFormat.WIRETYPE_VARINT -> timestamp = in.readInt64();
        default -> skip(in, tag);
      }
    }
  }

  private void metadata(CodedInputStream in, WriteHandler handler) throws IOException {
    invalidText = false;
    int type = 0;
    String family = "";
    String help = "";
    String unit = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_VARINT -> type = in.readEnum();
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> family = text(in);
        case (4 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> help = text(in);
        case (5 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> unit = text(in);
        default -> skip(in, tag);
      }
    }
    MetricType metricType = type >= 0 && type < TYPES.length ? TYPES[type] : MetricType.UNKNOWN;
    if (!invalidText) {
      handler.metadata(family, metricType, help, unit);
    }
  }

  /**
   * A string field; invalid UTF-8 marks the entry invalid (Prometheus skips such a series and
   * counts it) instead of failing the whole request.
   */
  private String text(CodedInputStream in) throws IOException {
    ByteString bytes = in.readBytes();
    if (!bytes.isValidUtf8()) {
      invalidText = true;
    }
    return bytes.toStringUtf8();
  }

  private static void skip(CodedInputStream in, int tag) throws IOException {
    if (!in.skipField(tag)) {
      throw new InvalidProtocolBufferException("unexpected end-group tag");
    }
  }
}
