package io.flightdeck.remote;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.xerial.snappy.Snappy;

/**
 * Encodes remote-write 1.0 messages for tests, written independently of the decoder under test.
 * Messages are built field by field, so a test can also produce what the decoder must cope with but
 * a well-behaved sender rarely writes: any field order, repeated fields interleaved, unknown
 * fields. Field numbers are those of {@code shared/docs/remote-write.md}.
 */
final class WriteRequestEncoder {
  static final int REQUEST_TIMESERIES = 1;
  static final int REQUEST_RESERVED_SOURCE = 2;
  static final int REQUEST_METADATA = 3;

  static final int SERIES_LABELS = 1;
  static final int SERIES_SAMPLES = 2;
  static final int SERIES_EXEMPLARS = 3;
  static final int SERIES_HISTOGRAMS = 4;

  private WriteRequestEncoder() {}

  /** One protobuf message under construction. */
  static final class Message {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

    Message message(int field, Message nested) {
      return write(() -> out.writeBytes(field, ByteString.copyFrom(nested.toByteArray())));
    }

    Message string(int field, String value) {
      return write(() -> out.writeString(field, value));
    }

    Message bytesField(int field, byte[] value) {
      return write(() -> out.writeByteArray(field, value));
    }

    Message doubleField(int field, double value) {
      return write(() -> out.writeDouble(field, value));
    }

    Message int64(int field, long value) {
      return write(() -> out.writeInt64(field, value));
    }

    Message uint64(int field, long value) {
      return write(() -> out.writeUInt64(field, value));
    }

    Message enumField(int field, int value) {
      return write(() -> out.writeEnum(field, value));
    }

    Message sint32(int field, int value) {
      return write(() -> out.writeSInt32(field, value));
    }

    Message fixed32(int field, int value) {
      return write(() -> out.writeFixed32(field, value));
    }

    byte[] toByteArray() {
      write(out::flush);
      return bytes.toByteArray();
    }

    private Message write(IoAction action) {
      try {
        action.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
      }
      return this;
    }
  }

  private interface IoAction {
    void run() throws IOException;
  }

  static Message label(String name, String value) {
    return new Message().string(1, name).string(2, value);
  }

  /** Like a proto3 sender, leaves out fields at their default (+0.0, timestamp 0). */
  static Message sample(double value, long timestampMillis) {
    Message sample = new Message();
    if (Double.doubleToRawLongBits(value) != 0) {
      sample.doubleField(1, value);
    }
    if (timestampMillis != 0) {
      sample.int64(2, timestampMillis);
    }
    return sample;
  }

  /** A small integer native histogram: count, sum, schema and timestamp, no buckets. */
  static Message histogram(long count, double sum, long timestampMillis) {
    return new Message()
        .uint64(1, count)
        .doubleField(3, sum)
        .sint32(4, 3)
        .int64(15, timestampMillis);
  }

  /** MetricMetadata; {@code type} is the wire number (COUNTER=1 ... STATESET=7). */
  static Message metadata(int type, String metricFamily, String help, String unit) {
    return new Message().enumField(1, type).string(2, metricFamily).string(4, help).string(5, unit);
  }

  /** A TimeSeries with labels (name, value, name, value...) first, then the given samples. */
  static Message series(List<String> labelPairs, Message... samples) {
    Message series = new Message();
    for (int i = 0; i < labelPairs.size(); i += 2) {
      series.message(SERIES_LABELS, label(labelPairs.get(i), labelPairs.get(i + 1)));
    }
    for (Message sample : samples) {
      series.message(SERIES_SAMPLES, sample);
    }
    return series;
  }

  static Message request(Message... series) {
    Message request = new Message();
    for (Message s : series) {
      request.message(REQUEST_TIMESERIES, s);
    }
    return request;
  }

  /** Snappy block format, as remote write requires (not the framed stream format). */
  static byte[] snappy(byte[] raw) {
    try {
      return Snappy.compress(raw);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] snappy(Message request) {
    return snappy(request.toByteArray());
  }
}
