package io.flightdeck.tsdb.block;

import io.flightdeck.model.Labels;
import io.flightdeck.tsdb.encoding.Encbuf;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.roaringbitmap.RoaringBitmap;

/**
 * Writes a block's index from series given in label order: symbols, series with their chunk metas,
 * postings per label pair, lookup tables, table of contents and checksum.
 */
final class IndexWriter {
  private IndexWriter() {}

  static void write(Path blockDir, List<Labels> series, List<List<ChunkMeta>> chunks)
      throws IOException {
    // Each loop is a method of its own: C1 compiles a loop by compiling its whole method on the
    // stack (OSR), and compiled the one method they shared four times, once for each loop's entry.
    Map<String, Integer> symbolRef = symbolRefs(series);
    Encbuf buf = new Encbuf(1 << 16);
    buf.putBytes(IndexFormat.MAGIC, 0, 4)
        .putByte(IndexFormat.VERSION)
        .putByte(0)
        .putByte(0)
        .putByte(0);

    long symbolsOffset = buf.length();
    writeSymbols(buf, symbolRef);

    long seriesOffset = buf.length();
    Map<String, Map<String, RoaringBitmap>> postings = new HashMap<>();
    long[] seriesOffsets = writeSeries(buf, series, chunks, symbolRef, postings);

    long postingsOffset = buf.length();
    Encbuf table = new Encbuf(1 << 12);
    int entries = writePostings(buf, table, postings, symbolRef);

    long postingsTableOffset = buf.length();
    buf.putUvarint(entries);
    buf.putBytes(table.array(), 0, table.length());

    long seriesTableOffset = buf.length();
    buf.putUvarint(seriesOffsets.length);
    long previous = 0;
    for (long offset : seriesOffsets) {
      buf.putUvarint(offset - previous);
      previous = offset;
    }

    buf.putLong(symbolsOffset).putLong(seriesOffset).putLong(postingsOffset);
    buf.putLong(postingsTableOffset).putLong(seriesTableOffset);
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, buf.length());
    buf.putInt((int) crc.getValue());

    Path file = blockDir.resolve(IndexFormat.FILE);
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(buf.array(), 0, buf.length());
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  /** Every label name and value of the series, each with its position in sorted order. */
  private static Map<String, Integer> symbolRefs(List<Labels> series) {
    // Hashed while collecting, sorted once: a block's series repeat a few names and values many
    // times, which sorted sets compared again at every add.
    Map<String, Integer> symbolRef = new HashMap<>();
    for (Labels labels : series) {
      for (int i = 0; i < labels.size(); i++) {
        symbolRef.put(labels.name(i), 0);
        symbolRef.put(labels.value(i), 0);
      }
    }
    List<String> symbols = sorted(symbolRef.keySet());
    for (int i = 0; i < symbols.size(); i++) {
      symbolRef.put(symbols.get(i), i);
    }
    return symbolRef;
  }

  private static void writeSymbols(Encbuf buf, Map<String, Integer> symbolRef) {
    String[] symbols = new String[symbolRef.size()];
    for (Map.Entry<String, Integer> e : symbolRef.entrySet()) {
      symbols[e.getValue()] = e.getKey();
    }
    buf.putUvarint(symbols.length);
    for (String symbol : symbols) {
      buf.putString(symbol);
    }
  }

  /**
   * Writes each series' labels and chunk metas, and adds its id to the postings of its label pairs;
   * returns where each series starts.
   */
  private static long[] writeSeries(
      Encbuf buf,
      List<Labels> series,
      List<List<ChunkMeta>> chunks,
      Map<String, Integer> symbolRef,
      Map<String, Map<String, RoaringBitmap>> postings) {
    long[] seriesOffsets = new long[series.size()];
    for (int id = 0; id < series.size(); id++) {
      seriesOffsets[id] = buf.length();
      Labels labels = series.get(id);
      buf.putUvarint(labels.size());
      for (int i = 0; i < labels.size(); i++) {
        buf.putUvarint(symbolRef.get(labels.name(i))).putUvarint(symbolRef.get(labels.value(i)));
        postings
            .computeIfAbsent(labels.name(i), n -> new HashMap<>())
            .computeIfAbsent(labels.value(i), v -> new RoaringBitmap())
            .add(id);
      }
      writeChunkMetas(buf, chunks.get(id));
    }
    return seriesOffsets;
  }

  private static void writeChunkMetas(Encbuf buf, List<ChunkMeta> metas) {
    buf.putUvarint(metas.size());
    long previousRef = 0;
    for (ChunkMeta meta : metas) {
      buf.putVarint(meta.minTime()).putUvarint(meta.maxTime() - meta.minTime());
      buf.putVarint(meta.ref() - previousRef);
      previousRef = meta.ref();
    }
  }

  /**
   * Writes the postings of each label pair in sorted order to {@code buf} and their entries to
   * {@code table}; returns the number of entries.
   */
  private static int writePostings(
      Encbuf buf,
      Encbuf table,
      Map<String, Map<String, RoaringBitmap>> postings,
      Map<String, Integer> symbolRef) {
    int entries = 0;
    for (String name : sorted(postings.keySet())) {
      Map<String, RoaringBitmap> byValue = postings.get(name);
      for (String value : sorted(byValue.keySet())) {
        RoaringBitmap bitmap = byValue.get(value);
        bitmap.runOptimize();
        long at = buf.length();
        ByteBuffer serialized = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(serialized);
        buf.putBytes(serialized.array(), 0, serialized.capacity());
        table.putUvarint(symbolRef.get(name)).putUvarint(symbolRef.get(value));
        table.putUvarint(at).putUvarint(serialized.capacity());
        entries++;
      }
    }
    return entries;
  }

  /** The strings in their natural order, as the index lists symbols and postings. */
  private static List<String> sorted(Set<String> strings) {
    List<String> list = new ArrayList<>(strings);
    Collections.sort(list);
    return list;
  }
}
