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
    try (ChunkWriter writer = new ChunkWriter(tmp)) {
      writeChunks(writer, sortedSeries, mint, maxt, labels, chunks);
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
            sampleCount(chunks),
            labels.size(),
            chunkCount(chunks),
            level,
            sources.isEmpty() ? List.of(ulid) : sources);
    meta.write(tmp);
    syncDir(tmp.resolve(ChunkFiles.DIR));
    syncDir(tmp);
    Files.move(tmp, parent.resolve(ulid), StandardCopyOption.ATOMIC_MOVE);
    syncDir(parent);
    return meta;
  }

  /**
   * Writes the chunks of each series' samples in [mint, maxt), adding the series that had some to
   * {@code labels} and their chunks to {@code chunks}. Each loop of a block's writing is a method
   * of its own: C1, which compiles a loop by compiling its whole method on the stack (OSR),
   * compiled the one method they shared, 47 KB of code, four times, once for each loop's entry.
   */
  private static void writeChunks(
      ChunkWriter writer,
      SeriesSet sortedSeries,
      long mint,
      long maxt,
      List<Labels> labels,
      List<List<ChunkMeta>> chunks)
      throws IOException {
    SampleBuffer buffer = new SampleBuffer();
    while (sortedSeries.next()) {
      Series series = sortedSeries.at();
      List<ChunkMeta> metas =
          series instanceof EncodedChunkedSeries encoded
              ? writeEncoded(writer, encoded.encodedChunks(mint, maxt))
              : buffer.write(writer, series, mint, maxt);
      if (!metas.isEmpty()) {
        labels.add(series.labels());
        chunks.add(metas);
      }
    }
  }

  private static long sampleCount(List<List<ChunkMeta>> chunks) {
    long samples = 0;
    for (List<ChunkMeta> metas : chunks) {
      for (ChunkMeta meta : metas) {
        samples += meta.count();
      }
    }
    return samples;
  }

  private static long chunkCount(List<List<ChunkMeta>> chunks) {
    long count = 0;
    for (List<ChunkMeta> metas : chunks) {
      count += metas.size();
    }
    return count;
  }

  /** Writes chunks that are encoded already, as they are. */
  private static List<ChunkMeta> writeEncoded(ChunkWriter writer, List<EncodedChunk> encoded)
      throws IOException {
    List<ChunkMeta> metas = new ArrayList<>(encoded.size());
    for (EncodedChunk chunk : encoded) {
      metas.add(write(writer, chunk));
    }
    return metas;
  }

  /**
   * Gathers a series' samples into chunks, reusing its arrays and iterator from series to series.
   */
  private static final class SampleBuffer {
    private final long[] times = new long[ChunkFiles.SAMPLES_PER_CHUNK];
    private final double[] values = new double[ChunkFiles.SAMPLES_PER_CHUNK];
    private SampleIterator reuse;

    /** Writes the series' samples in [mint, maxt) as chunks of up to a block chunk's samples. */
    List<ChunkMeta> write(ChunkWriter writer, Series series, long mint, long maxt)
        throws IOException {
      SampleIterator it = series.iterator(reuse);
      reuse = it;
      List<ChunkMeta> metas = new ArrayList<>();
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
      return metas;
    }
  }

  /** Writes one chunk, in the smaller of its encodings (see {@link ChunkEncoder}). */
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
