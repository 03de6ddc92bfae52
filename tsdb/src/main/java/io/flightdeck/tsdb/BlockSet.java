package io.flightdeck.tsdb;

import io.flightdeck.storage.StorageException;
import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.block.BlockWriter;
import io.flightdeck.tsdb.block.Ulid;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks currently live, ordered by start time. Readers take the current list without locking;
 * changes publish a new list. A block that fails to open is moved to {@code corrupted/} so the
 * database starts with the rest.
 */
final class BlockSet {
  private static final Logger log = LoggerFactory.getLogger(BlockSet.class);

  private final Path dir;
  private final TsdbMetrics metrics;
  private final List<String> problems;
  private final boolean readOnly;
  private volatile List<Block> blocks = List.of();

  /**
   * @param readOnly report damaged blocks and unfinished writes, but leave them where they are
   */
  BlockSet(Path dir, TsdbMetrics metrics, List<String> problems, boolean readOnly) {
    this.dir = dir;
    this.metrics = metrics;
    this.problems = problems;
    this.readOnly = readOnly;
  }

  void load() throws IOException {
    List<Block> opened = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, Files::isDirectory)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.endsWith(".tmp")) {
          if (!readOnly) {
            BlockWriter.deleteRecursively(entry); // an interrupted block write
          }
          continue;
        }
        if (!Ulid.looksLikeUlid(name)) {
          continue;
        }
        try {
          opened.add(Block.open(entry));
        } catch (IOException | RuntimeException e) {
          if (readOnly) {
            problems.add(
                StorageException.withContext(
                    "block is damaged and was skipped: " + e.getMessage(), "block", name));
          } else {
            moveAside(entry, e);
          }
        }
      }
    }
    opened.sort(Comparator.comparingLong(b -> b.meta().minTime()));
    blocks = List.copyOf(opened);
  }

  private void moveAside(Path block, Exception cause) throws IOException {
    Path corrupted = dir.resolve("corrupted");
    Files.createDirectories(corrupted);
    Path target = corrupted.resolve(block.getFileName());
    if (Files.exists(target)) {
      target = corrupted.resolve(block.getFileName() + "-" + System.currentTimeMillis());
    }
    Files.move(block, target, StandardCopyOption.ATOMIC_MOVE);
    String message =
        StorageException.withContext(
            "block is damaged and was moved aside; the database starts without it: "
                + cause.getMessage(),
            "block",
            block.getFileName(),
            "moved_to",
            target);
    log.error(message);
    problems.add(message);
    metrics.blocksMovedAside.increment();
  }

  List<Block> list() {
    return blocks;
  }

  synchronized void add(Block block) {
    replace(List.of(), block);
  }

  /** Publishes {@code added} in place of {@code removed}, which are retired. */
  synchronized void replace(Collection<Block> removed, Block added) {
    List<Block> next = new ArrayList<>(blocks);
    next.removeAll(removed);
    if (added != null) {
      next.add(added);
    }
    next.sort(Comparator.comparingLong(b -> b.meta().minTime()));
    blocks = List.copyOf(next);
    for (Block block : removed) {
      block.retire();
    }
  }

  long maxTime() {
    long max = Long.MIN_VALUE;
    for (Block block : blocks) {
      max = Math.max(max, block.meta().maxTime());
    }
    return max;
  }

  long sizeBytes() {
    long total = 0;
    for (Block block : blocks) {
      total += block.sizeBytes();
    }
    return total;
  }

  Path dir() {
    return dir;
  }

  void closeAll() {
    blocks = List.of();
  }
}
