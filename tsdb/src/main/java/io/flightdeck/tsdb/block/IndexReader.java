package io.flightdeck.tsdb.block;

import io.flightdeck.model.Labels;
import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import io.flightdeck.tsdb.index.PostingsSelector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads a block index. The whole file is checksummed at open, so a damaged index is found before
 * any query uses it. Symbols, postings and the series offset table are loaded into memory; series
 * entries are decoded from the mapped file on demand. Thread-safe.
 */
final class IndexReader implements PostingsSelector.Source {
  private final Path file;
  private final MappedByteBuffer mapped;
  private final String[] symbols;
  private final int[] seriesOffsets;
  private final TreeMap<String, NavigableMap<String, RoaringBitmap>> postings = new TreeMap<>();
  private final RoaringBitmap all = new RoaringBitmap();
  private final long size;

  IndexReader(Path blockDir) throws IOException {
    this.file = blockDir.resolve(IndexFormat.FILE);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      this.size = channel.size();
      if (size < IndexFormat.HEADER_SIZE + IndexFormat.TOC_SIZE + 4 || size > Integer.MAX_VALUE) {
        throw corrupt("index file has an impossible size " + size);
      }
      this.mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
    }
    byte[] magic = new byte[4];
    mapped.get(0, magic);
    if (!Arrays.equals(magic, IndexFormat.MAGIC) || mapped.get(4) != IndexFormat.VERSION) {
      throw corrupt("bad magic or version");
    }
    int crcAt = (int) size - 4;
    CRC32C crc = new CRC32C();
    ByteBuffer covered = mapped.duplicate();
    covered.position(0).limit(crcAt);
    crc.update(covered);
    if ((int) crc.getValue() != mapped.getInt(crcAt)) {
      throw corrupt("checksum mismatch");
    }
    Decbuf toc = decbuf();
    toc.position(crcAt - IndexFormat.TOC_SIZE);
    int symbolsOffset = offset(toc.getLong());
    toc.getLong(); // series section start: entries are reached through the offset table
    toc.getLong(); // postings section start: bitmaps are reached through the postings table
    int postingsTableOffset = offset(toc.getLong());
    int seriesTableOffset = offset(toc.getLong());

    Decbuf in = decbuf();
    in.position(symbolsOffset);
    symbols = new String[count(in, "symbol")];
    for (int i = 0; i < symbols.length; i++) {
      symbols[i] = in.getString();
    }

    in.position(seriesTableOffset);
    seriesOffsets = new int[count(in, "series")];
    long previous = 0;
    for (int i = 0; i < seriesOffsets.length; i++) {
      previous += in.getUvarint();
      seriesOffsets[i] = offset(previous);
    }
    if (seriesOffsets.length > 0) {
      all.add(0L, seriesOffsets.length);
    }

    in.position(postingsTableOffset);
    int entries = in.getUvarintInt();
    for (int i = 0; i < entries; i++) {
      String name = symbol(in.getUvarintInt());
      String value = symbol(in.getUvarintInt());
      int at = offset(in.getUvarint());
      int length = in.getUvarintInt();
      if (length > size - at) {
        throw corrupt("postings for " + name + "=" + value + " run past the end");
      }
      ByteBuffer slice = mapped.duplicate();
      slice.position(at).limit(at + length);
      RoaringBitmap bitmap = new RoaringBitmap();
      try {
        bitmap.deserialize(slice.slice());
      } catch (IOException | RuntimeException e) {
        throw corrupt("unreadable postings for " + name + "=" + value);
      }
      postings.computeIfAbsent(name, n -> new TreeMap<>()).put(value, bitmap);
    }
  }

  /**
   * A count of entries that take at least one byte each, so no more than the bytes left: a count
   * written wrong fails here instead of sizing an array from it.
   */
  private int count(Decbuf in, String entries) {
    int count = in.getUvarintInt();
    if (count > in.remaining()) {
      throw corrupt(entries + " count " + count + " larger than the bytes left");
    }
    return count;
  }

  private Decbuf decbuf() {
    return new Decbuf(mapped.duplicate());
  }

  private int offset(long value) {
    if (value < 0 || value >= size) {
      throw corrupt("section offset " + value + " outside the file");
    }
    return (int) value;
  }

  private String symbol(int ref) {
    if (ref < 0 || ref >= symbols.length) {
      throw corrupt("symbol reference " + ref + " out of range");
    }
    return symbols[ref];
  }

  private CorruptDataException corrupt(String what) {
    return new CorruptDataException(what + " in block index " + file);
  }

  int numSeries() {
    return seriesOffsets.length;
  }

  long size() {
    return size;
  }

  /** Decodes series {@code id}: returns its labels and adds its chunk metas to {@code chunks}. */
  Labels series(int id, List<ChunkMeta> chunks) {
    Decbuf in = decbuf();
    in.position(seriesOffsets[id]);
    int count = count(in, "label");
    String[] pairs = new String[2 * count];
    for (int i = 0; i < pairs.length; i++) {
      pairs[i] = symbol(in.getUvarintInt());
    }
    int chunkCount = in.getUvarintInt();
    long ref = 0;
    for (int i = 0; i < chunkCount; i++) {
      long minTime = in.getVarint();
      long maxTime = minTime + in.getUvarint();
      ref += in.getVarint();
      chunks.add(new ChunkMeta(minTime, maxTime, ref, 0));
    }
    return Labels.fromSortedPairs(pairs);
  }

  @Override
  public RoaringBitmap allPostings() {
    return all;
  }

  @Override
  public NavigableMap<String, RoaringBitmap> valuesOf(String name) {
    return postings.getOrDefault(name, Collections.emptyNavigableMap());
  }

  List<String> labelNames() {
    return List.copyOf(postings.keySet());
  }
}
