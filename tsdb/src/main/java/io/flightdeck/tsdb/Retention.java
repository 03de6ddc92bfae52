package io.flightdeck.tsdb;

import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.head.Head;
import io.flightdeck.tsdb.wal.Wal;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes whole blocks past the retention time (measured from the newest sample, as Prometheus
 * does) and, oldest first, while blocks and WAL together exceed the size limit.
 */
final class Retention {
  private static final Logger log = LoggerFactory.getLogger(Retention.class);

  private final TsdbOptions options;
  private final Head head;
  private final BlockSet blocks;
  private final Wal wal;
  private final TsdbMetrics metrics;

  Retention(TsdbOptions options, Head head, BlockSet blocks, Wal wal, TsdbMetrics metrics) {
    this.options = options;
    this.head = head;
    this.blocks = blocks;
    this.wal = wal;
    this.metrics = metrics;
  }

  void apply() {
    List<Block> expired = new ArrayList<>();
    List<Block> sorted = blocks.list();
    long retention = options.retention().toMillis();
    if (retention > 0) {
      long newest = Math.max(head.maxTime(), blocks.maxTime());
      for (Block block : sorted) {
        if (block.meta().maxTime() <= newest - retention) {
          expired.add(block);
        }
      }
    }
    long limit = options.retentionBytes();
    if (limit > 0) {
      long total = blocks.sizeBytes() + wal.size();
      for (Block block : expired) {
        total -= block.sizeBytes();
      }
      for (Block block : sorted) {
        if (total <= limit) {
          break;
        }
        if (!expired.contains(block)) {
          expired.add(block);
          total -= block.sizeBytes();
        }
      }
    }
    if (!expired.isEmpty()) {
      for (Block block : expired) {
        log.info(
            "retention deletes block {} [{}, {})",
            block.meta().ulid(),
            block.meta().minTime(),
            block.meta().maxTime());
      }
      blocks.replace(expired, null);
      metrics.retentionDeletions.add(expired.size());
    }
  }
}
