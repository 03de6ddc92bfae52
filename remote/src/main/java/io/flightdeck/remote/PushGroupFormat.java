package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The bytes of the push-group file, version 1, as described in {@code remote/docs/push-store.md}: a
 * header with magic, version, group count and its own checksum, then one length-prefixed,
 * CRC-32C-checked record per group. Decoding keeps every group before the first damaged record.
 */
final class PushGroupFormat {
  static final int MAGIC = 0x46445047; // "FDPG"
  static final byte VERSION = 1;
  static final int HEADER_BYTES = 4 + 1 + 4 + 4;
  private static final int RECORD_HEADER_BYTES = 4 + 4;

  /**
   * What could be read from a file.
   *
   * @param problem null when the whole file was valid, else the byte offset and what is wrong there
   */
  record Decoded(List<PushGroup> groups, String problem) {}

  private PushGroupFormat() {}

  static byte[] encode(Collection<PushGroup> groups) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(VERSION);
      out.writeInt(groups.size());
      out.writeInt(crc(bytes.toByteArray(), 0, HEADER_BYTES - 4));
      for (PushGroup group : groups) {
        byte[] payload = payload(group);
        out.writeInt(payload.length);
        out.writeInt(crc(payload, 0, payload.length));
        out.write(payload);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not fail
    }
    return bytes.toByteArray();
  }

  static Decoded decode(byte[] file) {
    List<PushGroup> groups = new ArrayList<>();
    if (file.length < HEADER_BYTES) {
      return new Decoded(groups, "offset 0: truncated header, " + file.length + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(file);
    int magic = in.getInt();
    if (magic != MAGIC) {
      return new Decoded(groups, String.format(Locale.ROOT, "offset 0: bad magic 0x%08x", magic));
    }
    int version = in.get();
    if (version != VERSION) {
      return new Decoded(groups, "offset 4: unsupported version " + version);
    }
    int count = in.getInt();
    if (in.getInt() != crc(file, 0, HEADER_BYTES - 4)) {
      return new Decoded(groups, "offset 0: header checksum mismatch");
    }
    for (int i = 0; i < count; i++) {
      int offset = in.position();
      String where = "offset " + offset + ": group " + (i + 1) + " of " + count + ": ";
      if (in.remaining() < RECORD_HEADER_BYTES) {
        return new Decoded(groups, where + "truncated, the file ends");
      }
      int length = in.getInt();
      int expectedCrc = in.getInt();
      if (length < 0 || length > in.remaining()) {
        return new Decoded(
            groups,
            where + "truncated, record of " + length + " bytes, " + in.remaining() + " left");
      }
      if (crc(file, in.position(), length) != expectedCrc) {
        return new Decoded(groups, where + "checksum mismatch");
      }
      ByteBuffer payload = in.slice(in.position(), length);
      in.position(in.position() + length);
      try {
        groups.add(readGroup(payload));
      } catch (BufferUnderflowException | IllegalArgumentException e) {
        return new Decoded(groups, where + "malformed record: " + e);
      }
    }
    if (in.hasRemaining()) {
      return new Decoded(
          groups,
          "offset " + in.position() + ": " + in.remaining() + " bytes after the last group");
    }
    return new Decoded(groups, null);
  }

  private static byte[] payload(PushGroup group) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeLong(group.pushTimeMillis());
    out.writeLong(group.pushFailureTimeMillis());
    writeLabels(out, group.grouping());
    out.writeInt(group.metadata().size());
    for (Map.Entry<String, MetricMetadata> family : group.metadata().entrySet()) {
      writeString(out, family.getKey());
      writeString(out, family.getValue().type().wireName());
      writeString(out, family.getValue().help());
      writeString(out, family.getValue().unit());
    }
    out.writeInt(group.series().size());
    for (Map.Entry<Labels, Double> series : group.series().entrySet()) {
      writeLabels(out, series.getKey());
      out.writeLong(Double.doubleToRawLongBits(series.getValue()));
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static PushGroup readGroup(ByteBuffer in) {
    long pushTime = in.getLong();
    long failureTime = in.getLong();
    Labels grouping = readLabels(in);
    int families = count(in);
    Map<String, MetricMetadata> metadata = new LinkedHashMap<>();
    for (int i = 0; i < families; i++) {
      String name = readString(in);
      String type = readString(in);
      metadata.put(
          name,
          new MetricMetadata(
              MetricType.valueOf(type.toUpperCase(Locale.ROOT)), readString(in), readString(in)));
    }
    int seriesCount = count(in);
    Map<Labels, Double> series = new LinkedHashMap<>();
    for (int i = 0; i < seriesCount; i++) {
      Labels labels = readLabels(in);
      series.put(labels, Double.longBitsToDouble(in.getLong()));
    }
    if (in.hasRemaining()) {
      throw new IllegalArgumentException(in.remaining() + " bytes after the last series");
    }
    return new PushGroup(grouping, series, metadata, pushTime, failureTime);
  }

  private static void writeLabels(DataOutputStream out, Labels labels) throws IOException {
    out.writeInt(labels.size());
    for (int i = 0; i < labels.size(); i++) {
      writeString(out, labels.name(i));
      writeString(out, labels.value(i));
    }
  }

  private static Labels readLabels(ByteBuffer in) {
    int size = count(in);
    Labels.Builder builder = Labels.builder();
    for (int i = 0; i < size; i++) {
      builder.set(readString(in), readString(in));
    }
    return builder.build();
  }

  private static void writeString(DataOutputStream out, String value) throws IOException {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(utf8.length);
    out.write(utf8);
  }

  private static String readString(ByteBuffer in) {
    int length = count(in);
    ByteBuffer utf8 = in.slice(in.position(), length);
    in.position(in.position() + length);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(utf8)
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("invalid UTF-8 in a string");
    }
  }

  /** A count or length, which must fit in what is left of the record. */
  private static int count(ByteBuffer in) {
    int count = in.getInt();
    if (count < 0 || count > in.remaining()) {
      throw new IllegalArgumentException("count " + count + " exceeds the record");
    }
    return count;
  }

  private static int crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
