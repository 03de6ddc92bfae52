package io.flightdeck.tsdb.block;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.DecimalChunk;
import io.flightdeck.tsdb.chunk.XorEncoder;
import io.flightdeck.tsdb.chunk.XorIterator;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a new block from series in label order, keeping the samples in [mint, maxt). The block is
 * assembled in {@code <ulid>.tmp} and renamed into place only when every file is on disk, so a
 * crash never leaves a half-written block where readers look.
 */
public final class BlockWriter {
  private BlockWriter() {}

  /**
   * Sets up, once per process, what writing a block needs: zstd's native bindings and the meta
   * file's JSON mapper, together about 0.2 s of CPU. A caller that will write blocks soon can have
   * it done ahead, on a thread of its own.
   */
  public static void preload() {
    DecimalChunk.preload();
    BlockMeta.preload();
  }

  /**
   * @return the new block's meta, or null when the range held no samples (nothing is written)
   */
  public static BlockMeta write(
      Path parent,
      long mint,
      long maxt,
      SeriesSet sortedSeries,
      int level,
      List<String> sources,
      long nowMillis)
      throws IOException {
    String ulid = Ulid.next(nowMillis);
    Path tmp = parent.resolve(ulid + ".tmp");
    try {
      return writeInto(parent, tmp, ulid, mint, maxt, sortedSeries, level, sources);
    } catch (IOException | RuntimeException e) {
      deleteRecursively(tmp); // a failed write (a full disk, say) leaves nothing behind
      throw e;
    }
  }

  private static BlockMeta writeInto(
      Path parent,
      Path tmp,
      String ulid,
      long mint,
      long maxt,
      SeriesSet sortedSeries,
      int level,
      List<String> sources)
      throws IOException {
    Files.createDirectories(tmp);
    List<Labels> labels = new ArrayList<>();
    List<List<ChunkMeta>> chunks = new ArrayList<>();
    long samples = 0;
    long chunkCount = 0;
    long[] times = new long[ChunkFiles.SAMPLES_PER_CHUNK];
    double[] values = new double[ChunkFiles.SAMPLES_PER_CHUNK];
    try (ChunkWriter writer = new ChunkWriter(tmp)) {
      SampleIterator reuse = null;
      XorIterator decoder = new XorIterator();
      while (sortedSeries.next()) {
        Series series = sortedSeries.at();
        List<ChunkMeta> metas = new ArrayList<>();
        if (series instanceof XorChunkedSeries chunked) {
          for (XorChunkedSeries.XorChunk chunk : chunked.xorChunks(mint, maxt)) {
            metas.add(flush(writer, chunk, decoder, times, values));
          }
        } else {
          SampleIterator it = series.iterator(reuse);
          reuse = it;
          int n = 0;
          boolean more = it.seek(mint);
          while (more && it.timestamp() < maxt) {
            times[n] = it.timestamp();
            values[n] = it.value();
            n++;
            if (n == ChunkFiles.SAMPLES_PER_CHUNK) {
              metas.add(flush(writer, times, values, n));
              n = 0;
            }
            more = it.next();
          }
          if (n > 0) {
            metas.add(flush(writer, times, values, n));
          }
        }
        for (ChunkMeta meta : metas) {
          samples += meta.count();
        }
        if (!metas.isEmpty()) {
          labels.add(series.labels());
          chunks.add(metas);
          chunkCount += metas.size();
        }
      }
    }
    if (labels.isEmpty()) {
      deleteRecursively(tmp);
      return null;
    }
    IndexWriter.write(tmp, labels, chunks);
    BlockMeta meta =
        new BlockMeta(
            ulid,
            mint,
            maxt,
            samples,
            labels.size(),
            chunkCount,
            level,
            sources.isEmpty() ? List.of(ulid) : sources);
    meta.write(tmp);
    syncDir(tmp.resolve(ChunkFiles.DIR));
    syncDir(tmp);
    Files.move(tmp, parent.resolve(ulid), StandardCopyOption.ATOMIC_MOVE);
    syncDir(parent);
    return meta;
  }

  /** Writes one chunk, in the decimal encoding when every value allows it, else XOR. */
  private static ChunkMeta flush(ChunkWriter writer, long[] times, double[] values, int n)
      throws IOException {
    byte[] decimal = DecimalChunk.encode(times, values, n);
    long ref;
    if (decimal != null) {
      ref = writer.write(ChunkEncoding.DECIMAL, n, decimal, decimal.length);
    } else {
      XorEncoder encoder = new XorEncoder();
      for (int i = 0; i < n; i++) {
        encoder.append(times[i], values[i]);
      }
      byte[] bytes = encoder.toBytes();
      ref = writer.write(ChunkEncoding.XOR, n, bytes, bytes.length);
    }
    return new ChunkMeta(times[0], times[n - 1], ref, n);
  }

  /** Writes a chunk that comes XOR-encoded: decimal when every value allows it, else as it is. */
  private static ChunkMeta flush(
      ChunkWriter writer,
      XorChunkedSeries.XorChunk chunk,
      XorIterator decoder,
      long[] times,
      double[] values)
      throws IOException {
    if (chunk.count() > times.length) {
      throw new IllegalArgumentException("an XOR chunk holds more samples than a block's chunk");
    }
    decoder.reset(chunk.data(), 0, chunk.length(), chunk.count());
    int n = 0;
    while (decoder.next()) {
      times[n] = decoder.timestamp();
      values[n] = decoder.value();
      n++;
    }
    byte[] decimal = DecimalChunk.encode(times, values, n);
    long ref =
        decimal != null
            ? writer.write(ChunkEncoding.DECIMAL, n, decimal, decimal.length)
            : writer.write(ChunkEncoding.XOR, n, chunk.data(), chunk.length());
    return new ChunkMeta(times[0], times[n - 1], ref, n);
  }

  static void syncDir(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  public static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (var walk = Files.walk(path)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
