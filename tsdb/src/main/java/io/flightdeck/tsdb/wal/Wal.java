package io.flightdeck.tsdb.wal;

import io.flightdeck.storage.StorageException;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.tsdb.encoding.Encbuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: numbered segment files of framed, checksummed records, plus at most one
 * checkpoint that replaces the segments before it (tsdb/docs/formats.md, "WAL").
 *
 * <p>Usage: {@link #open}, {@link #replay} once, then {@link #log} from any thread (calls are
 * serialised here). A record is in the operating system when {@code log} returns, so it survives a
 * crash of the process; {@link #sync()} is called periodically and on segment cuts.
 */
public final class Wal implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Wal.class);

  /** What replay found, for logs and metrics. */
  public record ReplayStats(long records, int segments, List<String> repairs) {}

  private final Path dir;
  private final long segmentSize;
  private final LongConsumer fsyncNanos;
  private final boolean readOnly;
  private SegmentFile current;
  private int currentIndex;
  private boolean closed;

  /** Set while {@code current} was closed by a cut whose next segment could not be created. */
  private boolean currentFull;

  private Wal(Path dir, long segmentSize, LongConsumer fsyncNanos, boolean readOnly) {
    this.dir = dir;
    this.segmentSize = segmentSize;
    this.fsyncNanos = fsyncNanos;
    this.readOnly = readOnly;
  }

  /**
   * Opens the WAL directory without writing to it yet.
   *
   * @param fsyncNanos receives the duration of every fsync, for metrics
   */
  public static Wal open(Path dir, long segmentSize, LongConsumer fsyncNanos) throws IOException {
    Files.createDirectories(dir);
    return new Wal(dir, segmentSize, fsyncNanos, false);
  }

  /** Opens the WAL for replay only: damage is reported, not repaired, and nothing is written. */
  public static Wal openReadOnly(Path dir) {
    return new Wal(dir, 0, nanos -> {}, true);
  }

  /**
   * Feeds the newest complete checkpoint, then every later segment, to the visitor. A damaged
   * record costs only itself: replay goes on with the next valid record of its segment, and the
   * segment is repaired in place after a copy of it is kept ({@link WalSalvage}), with a warning
   * that says what was lost and where. Afterwards writes go to a fresh segment.
   */
  public synchronized ReplayStats replay(WalVisitor visitor) throws IOException {
    List<String> repairs = new java.util.ArrayList<>();
    long records = 0;
    int checkpoint = -1;
    Path checkpointDir = null;
    if (readOnly && !Files.isDirectory(dir)) {
      return new ReplayStats(0, 0, repairs);
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.startsWith(WalSegments.CHECKPOINT_PREFIX)) {
          continue;
        }
        String suffix = name.substring(WalSegments.CHECKPOINT_PREFIX.length());
        if (suffix.endsWith(".tmp")) {
          if (!readOnly) {
            deleteRecursively(entry); // an interrupted checkpoint; its segments still exist
          }
          continue;
        }
        int index = Integer.parseInt(suffix);
        if (index > checkpoint) {
          if (checkpointDir != null && !readOnly) {
            deleteRecursively(checkpointDir);
          }
          checkpoint = index;
          checkpointDir = entry;
        }
      }
    }
    List<Integer> segments = WalSegments.list(dir);
    // Markers first: replay must know which samples are already in blocks before it meets them.
    for (int index : segments) {
      if (index > checkpoint) {
        WalSegmentReader.read(
            WalSegments.path(dir, index), index, t -> t == WalRecordCodec.BLOCK_FLUSHED, visitor);
      }
    }
    IntPredicate allButMarkers = t -> t != WalRecordCodec.BLOCK_FLUSHED;
    if (checkpointDir != null) {
      for (int index : WalSegments.list(checkpointDir)) {
        records +=
            readSegment(
                WalSegments.path(checkpointDir, index), -1, allButMarkers, visitor, repairs);
      }
    }
    int read = 0;
    int last = checkpoint;
    for (int index : segments) {
      Path file = WalSegments.path(dir, index);
      if (index <= checkpoint) {
        if (!readOnly) {
          Files.deleteIfExists(file); // already covered by the checkpoint
        }
        continue;
      }
      records += readSegment(file, index, allButMarkers, visitor, repairs);
      read++;
      last = index;
    }
    if (readOnly) {
      return new ReplayStats(records, read, repairs);
    }
    currentIndex = last + 1;
    current = SegmentFile.create(WalSegments.path(dir, currentIndex));
    syncDirectory(dir);
    return new ReplayStats(records, read, repairs);
  }

  private long readSegment(
      Path file, int segment, IntPredicate decode, WalVisitor visitor, List<String> repairs)
      throws IOException {
    WalSegmentReader.Result result = WalSegmentReader.read(file, segment, decode, visitor);
    if (result.clean()) {
      return result.records();
    }
    if (readOnly) {
      repairs.add("read-only, not repaired: " + WalSalvage.describe(file, result));
      return result.records();
    }
    String message = WalSalvage.repair(dir, file, result);
    log.warn(message);
    repairs.add(message);
    return result.records();
  }

  /** Appends one record; see the class comment for durability. */
  public synchronized void log(int type, Encbuf payload) {
    if (closed || current == null) {
      throw new StorageUnavailableException("the write-ahead log is closed", null);
    }
    if (currentFull
        || (current.size() + payload.length() > segmentSize
            && current.size() > WalSegments.HEADER_SIZE)) {
      try {
        cut();
      } catch (IOException e) {
        throw new StorageUnavailableException(
            StorageException.withContext("starting a new WAL segment failed", "dir", dir), e);
      }
    }
    current.append(type, payload);
  }

  /**
   * Closes the current segment and starts the next one.
   *
   * @return the index of the segment that was closed: every record logged so far is in it or before
   *     it
   */
  public synchronized int cut() throws IOException {
    if (!currentFull) {
      long start = System.nanoTime();
      current.close();
      fsyncNanos.accept(System.nanoTime() - start);
      currentFull = true;
    }
    // Numbered only once created: a failed cut (disk full) is retried under the same number, so
    // the segments stay consecutive for replay.
    SegmentFile next = SegmentFile.create(WalSegments.path(dir, currentIndex + 1));
    int closedIndex = currentIndex;
    currentIndex++;
    current = next;
    currentFull = false;
    syncDirectory(dir);
    return closedIndex;
  }

  /** Where the next record will go: {segment number, byte offset}. */
  public synchronized long[] position() {
    return new long[] {currentIndex, current.size()};
  }

  /** Forces written records to stable storage (power-loss durability). */
  public void sync() {
    SegmentFile file;
    synchronized (this) {
      if (closed || current == null) {
        return;
      }
      file = current;
    }
    long start = System.nanoTime();
    try {
      file.sync();
    } catch (java.nio.channels.ClosedChannelException e) {
      return; // the segment was cut meanwhile, and cutting synced it
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    fsyncNanos.accept(System.nanoTime() - start);
  }

  /**
   * Writes a checkpoint that replaces segments up to and including {@code upToSegment}: the
   * contents callback logs the records to keep into the given writer. The checkpoint is written to
   * a temporary directory and renamed when complete, then the segments it replaces are deleted.
   */
  public void checkpoint(int upToSegment, Consumer<RecordSink> contents) throws IOException {
    Path tmp = dir.resolve(WalSegments.CHECKPOINT_PREFIX + WalSegments.name(upToSegment) + ".tmp");
    deleteRecursively(tmp);
    Files.createDirectories(tmp);
    try (SegmentFile file = SegmentFile.create(WalSegments.path(tmp, 0))) {
      contents.accept(file::append);
    } catch (IOException | RuntimeException e) {
      deleteRecursively(tmp); // a full disk must not keep the half-written copy around
      throw e;
    }
    syncDirectory(tmp);
    Path done = dir.resolve(WalSegments.CHECKPOINT_PREFIX + WalSegments.name(upToSegment));
    Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
    syncDirectory(dir);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(WalSegments.CHECKPOINT_PREFIX) && !entry.equals(done)) {
          deleteRecursively(entry);
        }
      }
    }
    for (int index : WalSegments.list(dir)) {
      if (index <= upToSegment) {
        Files.deleteIfExists(WalSegments.path(dir, index));
      }
    }
  }

  /** Bytes of all segments and the checkpoint. */
  public long size() {
    try (var files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(Wal::sizeOf).sum();
    } catch (IOException e) {
      return 0;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (current != null && !currentFull) {
      current.close();
    }
  }

  /** A destination for checkpoint records. */
  @FunctionalInterface
  public interface RecordSink {
    void log(int type, Encbuf payload);
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  static void deleteRecursively(Path path) throws IOException {
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
