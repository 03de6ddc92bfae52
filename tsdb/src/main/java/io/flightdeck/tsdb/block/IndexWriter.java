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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
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
    TreeSet<String> symbolSet = new TreeSet<>();
    for (Labels labels : series) {
      labels.forEach(
          (name, value) -> {
            symbolSet.add(name);
            symbolSet.add(value);
          });
    }
    List<String> symbols = new ArrayList<>(symbolSet);
    Map<String, Integer> symbolRef = new HashMap<>();
    for (int i = 0; i < symbols.size(); i++) {
      symbolRef.put(symbols.get(i), i);
    }

    Encbuf buf = new Encbuf(1 << 16);
    buf.putBytes(IndexFormat.MAGIC, 0, 4)
        .putByte(IndexFormat.VERSION)
        .putByte(0)
        .putByte(0)
        .putByte(0);

    long symbolsOffset = buf.length();
    buf.putUvarint(symbols.size());
    for (String symbol : symbols) {
      buf.putString(symbol);
    }

    long seriesOffset = buf.length();
    long[] seriesOffsets = new long[series.size()];
    TreeMap<String, TreeMap<String, RoaringBitmap>> postings = new TreeMap<>();
    for (int id = 0; id < series.size(); id++) {
      seriesOffsets[id] = buf.length();
      Labels labels = series.get(id);
      buf.putUvarint(labels.size());
      for (int i = 0; i < labels.size(); i++) {
        buf.putUvarint(symbolRef.get(labels.name(i))).putUvarint(symbolRef.get(labels.value(i)));
        postings
            .computeIfAbsent(labels.name(i), n -> new TreeMap<>())
            .computeIfAbsent(labels.value(i), v -> new RoaringBitmap())
            .add(id);
      }
      List<ChunkMeta> metas = chunks.get(id);
      buf.putUvarint(metas.size());
      long previousRef = 0;
      for (ChunkMeta meta : metas) {
        buf.putVarint(meta.minTime()).putUvarint(meta.maxTime() - meta.minTime());
        buf.putVarint(meta.ref() - previousRef);
        previousRef = meta.ref();
      }
    }

    long postingsOffset = buf.length();
    Encbuf table = new Encbuf(1 << 12);
    int entries = 0;
    for (var byName : postings.entrySet()) {
      for (var byValue : byName.getValue().entrySet()) {
        RoaringBitmap bitmap = byValue.getValue();
        bitmap.runOptimize();
        long at = buf.length();
        ByteBuffer serialized = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(serialized);
        buf.putBytes(serialized.array(), 0, serialized.capacity());
        table
            .putUvarint(symbolRef.get(byName.getKey()))
            .putUvarint(symbolRef.get(byValue.getKey()));
        table.putUvarint(at).putUvarint(serialized.capacity());
        entries++;
      }
    }

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
}
