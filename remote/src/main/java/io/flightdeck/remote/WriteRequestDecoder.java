package io.flightdeck.remote;

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
    /** Starts a series; {@code labels} holds name, value, name, value... as decoded. */
    void series(List<String> labels);

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
    labels.clear();
    CodedInputStream in = CodedInputStream.newInstance(body, offset, length);
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
    handler.series(labels);
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
        case (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> name = in.readStringRequireUtf8();
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> value = in.readStringRequireUtf8();
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
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> family = in.readStringRequireUtf8();
        case (4 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> help = in.readStringRequireUtf8();
        case (5 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> unit = in.readStringRequireUtf8();
        default -> skip(in, tag);
      }
    }
    MetricType metricType = type >= 0 && type < TYPES.length ? TYPES[type] : MetricType.UNKNOWN;
    handler.metadata(family, metricType, help, unit);
  }

  private static void skip(CodedInputStream in, int tag) throws IOException {
    if (!in.skipField(tag)) {
      throw new InvalidProtocolBufferException("unexpected end-group tag");
    }
  }
}
