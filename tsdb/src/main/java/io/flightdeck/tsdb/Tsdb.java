package io.flightdeck.tsdb;

import io.flightdeck.model.Matcher;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.MergingQuerier;
import io.flightdeck.storage.MetadataSource;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.StorageException;
import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.block.BlockMeta;
import io.flightdeck.tsdb.block.BlockWriter;
import io.flightdeck.tsdb.head.Head;
import io.flightdeck.tsdb.wal.Wal;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded time-series database: a head in memory behind a WAL, and immutable blocks on disk,
 * queried together. Thread-safe. Open with {@link #open}, {@link #start()} the background work
 * (compaction, retention, WAL sync), {@link #close()} at the end.
 *
 * <p>Directory layout: {@code wal/} (segments and checkpoint), one directory per block named by its
 * ULID, {@code snapshots/}, {@code corrupted/} (blocks moved aside), and the {@code lock} file.
 */
public final class Tsdb implements Appendable, Queryable, MetadataSource, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Tsdb.class);

  private final TsdbOptions options;
  private final TsdbMetrics metrics = new TsdbMetrics();

  /** A failing disk fails the sync every second: logged once per cause, then counted. */
  private final FailureLog syncFailures =
      new FailureLog(
          "syncing the WAL", log::warn, Duration.ofMinutes(1), System::currentTimeMillis, 8);

  private final Path dir;
  private final boolean readOnly;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Wal wal;
  private final Head head;
  private final BlockSet blocks;
  private final ReaderEpochs readers = new ReaderEpochs();
  private final Object maintenance = new Object();
  private final List<String> openingProblems = new CopyOnWriteArrayList<>();
  private ScheduledExecutorService background;
  private volatile boolean closed;

  private Tsdb(TsdbOptions options, boolean readOnly) throws IOException {
    this.options = options;
    this.dir = options.path();
    this.readOnly = readOnly;
    this.blocks = new BlockSet(dir, metrics, openingProblems, readOnly);
    if (readOnly) {
      if (!Files.isDirectory(dir)) {
        throw new StorageException(
            StorageException.withContext("no data directory", "path", dir.toAbsolutePath()));
      }
      this.lockChannel = null;
      this.lock = null;
      this.wal = Wal.openReadOnly(dir.resolve("wal"));
    } else {
      Files.createDirectories(dir);
      this.lockChannel =
          FileChannel.open(
              dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      this.lock = lockExclusively(lockChannel, dir);
      this.wal = Wal.open(dir.resolve("wal"), options.walSegmentBytes(), metrics::recordFsync);
    }
    this.head = new Head(options, metrics, wal);
  }

  private static FileLock lockExclusively(FileChannel channel, Path dir) throws IOException {
    FileLock acquired;
    try {
      acquired = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      acquired = null;
    }
    if (acquired == null) {
      channel.close();
      throw new StorageException(
          StorageException.withContext(
              "the data directory is in use by another process", "path", dir.toAbsolutePath()));
    }
    return acquired;
  }

  /** Opens (or creates) the database and replays the WAL. */
  public static Tsdb open(TsdbOptions options) throws IOException {
    return load(new Tsdb(options, false));
  }

  /**
   * Opens a data directory for reading only, like Prometheus's read-only mode for promtool: no
   * lock, no repair, nothing written; works beside a running server (showing what is on disk).
   */
  public static Tsdb openReadOnly(TsdbOptions options) throws IOException {
    return load(new Tsdb(options, true));
  }

  private static Tsdb load(Tsdb tsdb) throws IOException {
    TsdbOptions options = tsdb.options;
    try {
      tsdb.blocks.load();
      long blocksMax = tsdb.blocks.maxTime();
      if (blocksMax != Long.MIN_VALUE) {
        tsdb.head.setMinValidTime(blocksMax);
      }
      long start = System.nanoTime();
      Wal.ReplayStats stats = tsdb.head.replay();
      tsdb.metrics.walCorruptions.add(stats.repairs().size());
      tsdb.openingProblems.addAll(stats.repairs());
      log.info(
          "opened TSDB at {}: {} blocks, {} head series, WAL replay of {} records took {} ms",
          options.path(),
          tsdb.blocks.list().size(),
          tsdb.head.numSeries(),
          stats.records(),
          (System.nanoTime() - start) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      tsdb.close();
      throw e;
    }
    return tsdb;
  }

  /** Starts background compaction and retention (every compaction interval) and WAL syncs. */
  public synchronized void start() {
    if (background != null || readOnly) {
      return;
    }
    background =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tsdb-maintenance");
              t.setDaemon(true);
              return t;
            });
    long interval = options.compactionInterval().toMillis();
    background.scheduleWithFixedDelay(
        this::maintainQuietly, interval, interval, TimeUnit.MILLISECONDS);
    background.scheduleWithFixedDelay(this::syncQuietly, 1, 1, TimeUnit.SECONDS);
  }

  private void maintainQuietly() {
    try {
      compact();
    } catch (Exception e) {
      metrics.compactionFailures.increment();
      log.error("compaction failed: {}", e.toString(), e);
    }
  }

  private void syncQuietly() {
    try {
      wal.sync();
    } catch (RuntimeException e) {
      syncFailures.record(e);
    }
  }

  public TsdbOptions options() {
    return options;
  }

  public TsdbMetrics metrics() {
    return metrics;
  }

  /** Problems found and repaired while opening (WAL cut, blocks moved aside), for the operator. */
  public List<String> openingProblems() {
    return List.copyOf(openingProblems);
  }

  @Override
  public Appender appender() {
    if (readOnly) {
      throw new io.flightdeck.storage.StorageUnavailableException(
          "the database was opened read-only", null);
    }
    if (closed) {
      throw new io.flightdeck.storage.StorageUnavailableException("the database is closed", null);
    }
    return head.appender();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The blocks are taken as one consistent list: when compaction replaces a block between
   * listing and opening, the list is taken again, so no range is ever missing from a query.
   */
  @Override
  public Querier querier(long mint, long maxt) {
    long epoch = readers.enter();
    try {
      List<Querier> parts = new ArrayList<>();
      parts.add(head.querier(mint, maxt));
      parts.addAll(blockQueriers(mint, maxt));
      return new EpochQuerier(new MergingQuerier(parts), () -> readers.exit(epoch));
    } catch (RuntimeException e) {
      readers.exit(epoch);
      throw e;
    }
  }

  private List<Querier> blockQueriers(long mint, long maxt) {
    while (true) {
      List<Querier> opened = new ArrayList<>();
      boolean complete = true;
      for (Block block : blocks.list()) {
        if (block.meta().overlaps(mint, maxt)) {
          Querier q = block.querier(mint, maxt);
          if (q == null) {
            complete = false;
            break;
          }
          opened.add(q);
        }
      }
      if (complete) {
        return opened;
      }
      opened.forEach(Querier::close);
    }
  }

  @Override
  public Map<String, MetricMetadata> metadata() {
    return head.metadata();
  }

  public Head head() {
    return head;
  }

  public List<BlockMeta> blockMetas() {
    return blocks.list().stream().map(Block::meta).toList();
  }

  /** Bytes of the blocks and the WAL. */
  public long sizeBytes() {
    return blocks.sizeBytes() + wal.size();
  }

  public long walSizeBytes() {
    return wal.size();
  }

  /**
   * Moves whatever the head holds that is ready into blocks, merges blocks, applies retention. Runs
   * in the background; tests call it directly.
   */
  public void compact() throws IOException, InterruptedException {
    synchronized (maintenance) {
      requireWritable();
      if (flushHead()) {
        head.checkpoint();
      }
      new Compactor(options, head, blocks, metrics, readers).mergeBlocks();
      new Retention(options, head, blocks, wal, metrics).apply();
    }
  }

  /**
   * An import that writes its samples straight to blocks (see {@link BlockImport}), buffering at
   * most about {@code maxBufferedBytes} of compressed samples. Meant for a database opened for the
   * import alone: the import's blocks may overlap the head's data, which later compactions merge.
   */
  public BlockImport blockImport(long maxBufferedBytes) {
    requireWritable();
    return new BlockImport(this, blocks, options, maxBufferedBytes);
  }

  /** Merges the blocks that overlap, as the next compaction would. */
  void mergeOverlappingBlocks() throws IOException {
    synchronized (maintenance) {
      new Compactor(options, head, blocks, metrics, readers).mergeOverlapping();
    }
  }

  /**
   * Writes the head windows that are ready to blocks, without the checkpoint that normally follows:
   * on its own only for tests of a crash between the two.
   */
  boolean flushHead() throws IOException, InterruptedException {
    synchronized (maintenance) {
      return new Compactor(options, head, blocks, metrics, readers).flushHead();
    }
  }

  /**
   * Writes every sample, the head included, as blocks under {@code snapshots/<name>} and returns
   * the name. Existing blocks are hard-linked, the head is written as a new block.
   */
  public String snapshot() throws IOException {
    synchronized (maintenance) {
      requireWritable();
      String name =
          java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                  .withZone(java.time.ZoneOffset.UTC)
                  .format(java.time.Instant.ofEpochMilli(options.clock().millis()))
              + "-"
              + Long.toHexString(new java.security.SecureRandom().nextLong() & 0xffffffffffffL);
      Path target = dir.resolve("snapshots").resolve(name);
      Files.createDirectories(target);
      for (Block block : blocks.list()) {
        linkTree(block.dir(), target.resolve(block.dir().getFileName()));
      }
      long mint = head.minTime();
      long maxt = head.maxTime();
      if (mint <= maxt) {
        try (Querier q = head.querier(mint, maxt)) {
          BlockWriter.write(
              target, mint, maxt + 1, q.select(true), 1, List.of(), options.clock().millis());
        }
      }
      return name;
    }
  }

  private static void linkTree(Path from, Path to) throws IOException {
    try (var walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path dest = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(dest);
        } else {
          Files.createLink(dest, source);
        }
      }
    }
  }

  /** Deletes the matching series' samples within [mint, maxt] from head and blocks. */
  public void delete(long mint, long maxt, Matcher... matchers) throws IOException {
    synchronized (maintenance) {
      requireWritable();
      head.delete(mint, maxt, matchers);
      for (Block block : blocks.list()) {
        block.delete(mint, maxt, matchers);
      }
    }
  }

  private void requireWritable() {
    if (readOnly) {
      throw new io.flightdeck.storage.StorageUnavailableException(
          "the database was opened read-only", null);
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (background != null) {
      // Let a running compaction finish: interrupting it would only waste its work.
      background.shutdown();
      try {
        if (!background.awaitTermination(60, TimeUnit.SECONDS)) {
          log.warn("compaction still running after 60 s; interrupting it");
          background.shutdownNow();
          background.awaitTermination(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      wal.close();
    } finally {
      blocks.closeAll();
      if (lock != null) {
        lock.release();
        lockChannel.close();
      }
    }
  }
}
