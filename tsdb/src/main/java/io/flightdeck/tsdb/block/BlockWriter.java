package io.flightdeck.tsdb.block;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.chunk.DecimalChunk;
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
   * Sets up, once per process, what writing a block needs: zstd's native bindings, the meta file's
   * JSON mapper and the random source of block names, together about 0.2 s of CPU. A caller that
   * will write blocks soon can have it done ahead, on a thread of its own.
   */
  public static void preload() {
    DecimalChunk.preload();
    BlockMeta.preload();
    Ulid.next(0);
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
      while (sortedSeries.next()) {
        Series series = sortedSeries.at();
        List<ChunkMeta> metas = new ArrayList<>();
        if (series instanceof EncodedChunkedSeries encoded) {
          for (EncodedChunk chunk : encoded.encodedChunks(mint, maxt)) {
            metas.add(write(writer, chunk));
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
    return write(writer, EncodedChunk.of(times, values, 0, n));
  }

  private static ChunkMeta write(ChunkWriter writer, EncodedChunk chunk) throws IOException {
    if (chunk.count() > ChunkFiles.SAMPLES_PER_CHUNK) {
      throw new IllegalArgumentException("a chunk holds more samples than a block's chunk");
    }
    long ref =
        writer.write(chunk.encoding(), chunk.count(), chunk.data(), chunk.offset(), chunk.length());
    return new ChunkMeta(chunk.minTime(), chunk.maxTime(), ref, chunk.count());
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
