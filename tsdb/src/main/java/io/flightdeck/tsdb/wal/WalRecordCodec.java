package io.flightdeck.tsdb.wal;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import io.flightdeck.tsdb.encoding.Encbuf;

/**
 * Payloads of the WAL record types (tsdb/docs/formats.md, "WAL"). Writers start a payload with
 * {@code begin*}, add entries, and hand the buffer to {@link Wal#log}; the entry count is patched
 * in by {@link #finish}.
 */
public final class WalRecordCodec {
  public static final int SERIES = 1;
  public static final int SAMPLES = 2;
  public static final int METADATA = 3;
  public static final int TOMBSTONES = 4;
  public static final int BLOCK_FLUSHED = 5;

  /**
   * Fills the place of damaged records after salvage, so that every later record keeps its offset
   * (block-flushed markers name offsets); replay skips it. Its payload is zeros.
   */
  static final int PADDING = 6;

  private static final MetricType[] TYPES = MetricType.values();

  private WalRecordCodec() {}

  /** Starts a payload: reserves the 4-byte entry count. */
  public static void begin(Encbuf buf) {
    buf.reset().putInt(0);
  }

  public static void finish(Encbuf buf, int entries) {
    buf.setInt(0, entries);
  }

  public static void addSeries(Encbuf buf, long ref, Labels labels) {
    buf.putUvarint(ref).putUvarint(labels.size());
    for (int i = 0; i < labels.size(); i++) {
      buf.putString(labels.name(i)).putString(labels.value(i));
    }
  }

  public static void addSample(Encbuf buf, long ref, long timestamp, double value) {
    buf.putUvarint(ref).putVarint(timestamp).putDouble(value);
  }

  public static void addMetadata(Encbuf buf, String metricName, MetricMetadata metadata) {
    buf.putString(metricName)
        .putByte(metadata.type().ordinal())
        .putString(metadata.help())
        .putString(metadata.unit());
  }

  public static void addTombstone(Encbuf buf, long ref, long mint, long maxt) {
    buf.putUvarint(ref).putVarint(mint).putVarint(maxt);
  }

  public static void addBlockFlushed(Encbuf buf, long mint, long maxt, int segment, long offset) {
    buf.putVarint(mint).putVarint(maxt).putUvarint(segment).putUvarint(offset);
  }

  static boolean isKnownType(int type) {
    return type >= SERIES && type <= PADDING;
  }

  /** Decodes one record payload into visitor calls. */
  public static void decode(int type, Decbuf in, WalVisitor visitor) {
    int entries = in.getInt();
    if (entries < 0) {
      throw new CorruptDataException("negative entry count " + entries);
    }
    for (int i = 0; i < entries; i++) {
      switch (type) {
        case SERIES -> {
          long ref = in.getUvarint();
          int count = in.getUvarintInt();
          // Each label takes two length bytes at least: a count written wrong must not size it.
          if (count > in.remaining() / 2) {
            throw new CorruptDataException("label count " + count + " larger than the record");
          }
          String[] pairs = new String[2 * count];
          for (int j = 0; j < pairs.length; j++) {
            pairs[j] = in.getString();
          }
          visitor.series(ref, Labels.of(pairs));
        }
        case SAMPLES -> visitor.sample(in.getUvarint(), in.getVarint(), in.getDouble());
        case METADATA -> {
          String name = in.getString();
          int typeIndex = in.getByte();
          if (typeIndex >= TYPES.length) {
            throw new CorruptDataException("unknown metric type " + typeIndex);
          }
          visitor.metadata(
              name, new MetricMetadata(TYPES[typeIndex], in.getString(), in.getString()));
        }
        case TOMBSTONES -> visitor.tombstone(in.getUvarint(), in.getVarint(), in.getVarint());
        case BLOCK_FLUSHED ->
            visitor.blockFlushed(
                in.getVarint(), in.getVarint(), in.getUvarintInt(), in.getUvarint());
        default -> throw new CorruptDataException("unknown WAL record type " + type);
      }
    }
  }
}
