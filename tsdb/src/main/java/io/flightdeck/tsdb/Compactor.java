package io.flightdeck.tsdb;

import io.flightdeck.storage.MergingQuerier;
import io.flightdeck.storage.Querier;
import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.block.BlockMeta;
import io.flightdeck.tsdb.block.BlockWriter;
import io.flightdeck.tsdb.head.Head;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves head data into blocks and merges blocks, as Prometheus does: the head is cut into
 * block-range windows once it spans 1.5 ranges; backfill older than the head gets blocks of its
 * own; overlapping blocks are merged; adjacent blocks are merged into windows three times larger,
 * up to a tenth of the retention (at most 31 days).
 */
final class Compactor {
  private static final Logger log = LoggerFactory.getLogger(Compactor.class);

  /** Bounds every loop here, so a bug can never spin the maintenance thread forever. */
  private static final int MAX_ROUNDS = 100_000;

  private final TsdbOptions options;
  private final Head head;
  private final BlockSet blocks;
  private final TsdbMetrics metrics;
  private final long range;
  private final ReaderEpochs readers;

  /** How long a head truncation waits for queriers that may not have seen the new block. */
  private static final long READER_WAIT_MILLIS = 120_000;

  Compactor(
      TsdbOptions options, Head head, BlockSet blocks, TsdbMetrics metrics, ReaderEpochs readers) {
    this.options = options;
    this.head = head;
    this.blocks = blocks;
    this.metrics = metrics;
    this.readers = readers;
    this.range = options.blockRange().toMillis();
  }

  /** Writes ready head windows and pending backfill to blocks; true if anything moved. */
  boolean flushHead() throws IOException, InterruptedException {
    boolean flushed = false;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      long min = head.minTime();
      long max = head.maxTime();
      if (min == Long.MAX_VALUE) {
        break;
      }
      long start = Math.floorDiv(min, range) * range;
      long end = start + range;
      boolean headReady = max - start >= range + range / 2;
      boolean belowHead = min < head.minValidTime();
      if (!headReady && !belowHead) {
        break;
      }
      if (headReady) {
        head.setMinValidTime(end);
      }
      Head.FlushView view = head.flushView(start, end - 1);
      BlockMeta meta;
      long began = System.nanoTime();
      try (Querier querier = view.querier()) {
        meta =
            BlockWriter.write(
                blocks.dir(),
                start,
                end,
                querier.select(true),
                1,
                List.of(),
                options.clock().millis());
      }
      if (meta != null) {
        blocks.add(Block.open(blocks.dir().resolve(meta.ulid())));
        metrics.compactions.increment();
        log.info(
            "wrote head block {} [{}, {}): {} series, {} samples in {} ms",
            meta.ulid(),
            start,
            end,
            meta.numSeries(),
            meta.numSamples(),
            (System.nanoTime() - began) / 1_000_000);
        head.logBlockFlushed(start, end - 1, view);
      }
      if (!readers.awaitBefore(readers.advance(), READER_WAIT_MILLIS)) {
        log.warn(
            "a querier stayed open for over {} s; truncating the head anyway",
            READER_WAIT_MILLIS / 1000);
      }
      head.truncate(end, view.seq());
      flushed = true;
      if (head.minTime() == min) {
        break; // nothing could be dropped (in-flight commits); try again next cycle
      }
    }
    return flushed;
  }

  /** Merges overlapping blocks, then adjacent blocks into larger windows. */
  void mergeBlocks() throws IOException {
    mergeOverlapping();
    for (int round = 0; round < MAX_ROUNDS; round++) {
      List<Block> group = levelGroup();
      if (group == null) {
        return;
      }
      merge(group);
      mergeOverlapping();
    }
  }

  /** Merges blocks that overlap in time into one each, so no sample is stored twice. */
  void mergeOverlapping() throws IOException {
    for (int round = 0; round < MAX_ROUNDS; round++) {
      List<Block> group = overlappingGroup();
      if (group == null) {
        return;
      }
      merge(group);
    }
  }

  private List<Block> overlappingGroup() {
    List<Block> sorted = blocks.list();
    for (int i = 0; i + 1 < sorted.size(); i++) {
      List<Block> group = new ArrayList<>();
      group.add(sorted.get(i));
      long groupMax = sorted.get(i).meta().maxTime();
      for (int j = i + 1; j < sorted.size() && sorted.get(j).meta().minTime() < groupMax; j++) {
        group.add(sorted.get(j));
        groupMax = Math.max(groupMax, sorted.get(j).meta().maxTime());
      }
      if (group.size() > 1) {
        return group;
      }
    }
    return null;
  }

  private List<Block> levelGroup() {
    long maxDuration = maxBlockDuration();
    long complete = head.minValidTime();
    for (long window = range * 3; window <= maxDuration; window *= 3) {
      List<Block> sorted = blocks.list();
      for (int i = 0; i < sorted.size(); i++) {
        long windowStart = Math.floorDiv(sorted.get(i).meta().minTime(), window) * window;
        long windowEnd = windowStart + window;
        if (windowEnd > complete) {
          continue; // the head may still add blocks to this window
        }
        List<Block> group = new ArrayList<>();
        for (int j = i; j < sorted.size() && sorted.get(j).meta().maxTime() <= windowEnd; j++) {
          group.add(sorted.get(j));
        }
        if (group.size() > 1) {
          return group;
        }
      }
    }
    return null;
  }

  private long maxBlockDuration() {
    Duration retention = options.retention();
    long limit = Duration.ofDays(31).toMillis();
    if (!retention.isZero()) {
      limit = Math.min(limit, retention.toMillis() / 10);
    }
    return Math.max(limit, range);
  }

  private void merge(List<Block> group) throws IOException {
    long mint = Long.MAX_VALUE;
    long maxt = Long.MIN_VALUE;
    int level = 0;
    Set<String> sources = new LinkedHashSet<>();
    List<Querier> queriers = new ArrayList<>();
    for (Block block : group) {
      mint = Math.min(mint, block.meta().minTime());
      maxt = Math.max(maxt, block.meta().maxTime());
      level = Math.max(level, block.meta().level());
      sources.addAll(block.meta().sources());
    }
    long began = System.nanoTime();
    BlockMeta meta;
    try {
      for (Block block : group) {
        Querier q = block.querier(mint, maxt - 1);
        if (q != null) {
          queriers.add(q);
        }
      }
      try (Querier merged = new MergingQuerier(queriers)) {
        meta =
            BlockWriter.write(
                blocks.dir(),
                mint,
                maxt,
                merged.select(true),
                level + 1,
                new ArrayList<>(sources),
                options.clock().millis());
      }
    } catch (IOException | RuntimeException e) {
      metrics.compactionFailures.increment();
      throw e;
    }
    Block added = meta == null ? null : Block.open(blocks.dir().resolve(meta.ulid()));
    blocks.replace(group, added);
    metrics.compactions.increment();
    log.info(
        "compacted {} blocks into {} [{}, {}) in {} ms",
        group.size(),
        meta == null ? "nothing" : meta.ulid(),
        mint,
        maxt,
        (System.nanoTime() - began) / 1_000_000);
  }
}
