package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import io.flightdeck.tsdb.encoding.Encbuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Deleted time ranges per series of a block ({@code tombstones} file; tsdb/docs/formats.md). The
 * samples stay in the chunks until the block is compacted; readers skip them. Immutable.
 */
final class Tombstones {
  static final String FILE = "tombstones";
  private static final byte[] MAGIC = {'F', 'D', 'T', 'S'};
  private static final int VERSION = 1;
  static final Tombstones NONE = new Tombstones(Map.of());

  private final Map<Integer, List<long[]>> ranges;

  private Tombstones(Map<Integer, List<long[]>> ranges) {
    this.ranges = ranges;
  }

  List<long[]> of(int seriesId) {
    return ranges.getOrDefault(seriesId, List.of());
  }

  boolean isEmpty() {
    return ranges.isEmpty();
  }

  Tombstones with(Iterable<Integer> seriesIds, long mint, long maxt) {
    Map<Integer, List<long[]>> copy = new TreeMap<>(ranges);
    for (int id : seriesIds) {
      List<long[]> list = new ArrayList<>(copy.getOrDefault(id, List.of()));
      list.add(new long[] {mint, maxt});
      copy.put(id, list);
    }
    return new Tombstones(copy);
  }

  static Tombstones read(Path blockDir) throws IOException {
    Path file = blockDir.resolve(FILE);
    if (!Files.exists(file)) {
      return NONE;
    }
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < 12 || !Arrays.equals(bytes, 0, 4, MAGIC, 0, 4) || bytes[4] != VERSION) {
      throw new CorruptDataException("bad header in " + file);
    }
    Encbuf check = new Encbuf(bytes.length);
    check.putBytes(bytes, 0, bytes.length - 4);
    if (check.crc32c(0, check.length()) != Decbuf.wrap(bytes, bytes.length - 4, 4).getInt()) {
      throw new CorruptDataException("checksum mismatch in " + file);
    }
    Decbuf in = Decbuf.wrap(bytes, 8, bytes.length - 12);
    Map<Integer, List<long[]>> ranges = new TreeMap<>();
    int series = in.getUvarintInt();
    for (int i = 0; i < series; i++) {
      int id = in.getUvarintInt();
      int count = in.getUvarintInt();
      List<long[]> list = new ArrayList<>(count);
      for (int j = 0; j < count; j++) {
        list.add(new long[] {in.getVarint(), in.getVarint()});
      }
      ranges.put(id, list);
    }
    return new Tombstones(ranges);
  }

  /** Replaces the file atomically. */
  void write(Path blockDir) throws IOException {
    Encbuf buf = new Encbuf(64);
    buf.putBytes(MAGIC, 0, 4).putByte(VERSION).putByte(0).putByte(0).putByte(0);
    buf.putUvarint(ranges.size());
    for (Map.Entry<Integer, List<long[]>> entry : ranges.entrySet()) {
      buf.putUvarint(entry.getKey()).putUvarint(entry.getValue().size());
      for (long[] range : entry.getValue()) {
        buf.putVarint(range[0]).putVarint(range[1]);
      }
    }
    buf.putInt(buf.crc32c(0, buf.length()));
    Path tmp = blockDir.resolve(FILE + ".tmp");
    Files.write(tmp, buf.toByteArray());
    Files.move(
        tmp,
        blockDir.resolve(FILE),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }
}
