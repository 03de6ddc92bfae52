package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads and decodes the event files of a logdir's runs, in run and file name order, on a thread of
 * its own, and hands what it finds to the consuming thread in that same order: points in batches,
 * damage, and the end of each file. Reading and decoding then take one core and storing the other.
 * At most {@link #QUEUED_BATCHES} batches of {@link #BATCH_POINTS} points wait at any time, so
 * memory stays bounded. One consumer.
 */
final class DecodingThread implements AutoCloseable {
  static final int BATCH_POINTS = 2048;

  /**
   * Deep enough that neither thread runs dry while the other is held up (by the compiler, the
   * collector, a burst of chunks to seal). With 16 batches of 1,024 points the storing thread
   * waited on an empty queue 3,000 to 5,000 times in a 1 GB import, 0.4 to 0.9 s in all, each wait
   * a sleep and a wake-up, and the import took 2.79 s; with 64 such batches, 2.36 s. What counts is
   * the points in flight: 128 K of them (64 batches of 2,048 here, or 32 of 4,096) took it to
   * 2.31–2.32 s against 2.40–2.43 for 64 K, for 4 to 6 MiB more peak RSS; 256 K did no better.
   */
  static final int QUEUED_BATCHES = 64;

  private final HandOffQueue<ImportItem> queue = new HandOffQueue<>(QUEUED_BATCHES);

  /** Consumed batches, for the decoding thread to fill again instead of allocating. */
  private final Queue<PointBatch> recycled = new ConcurrentLinkedQueue<>();

  private final Thread thread;

  DecodingThread(List<TensorBoardRun> runs) {
    thread = new Thread(() -> decodeAll(runs), "tensorboard-decoder");
    thread.setDaemon(true);
    thread.start();
  }

  /** The next item, waiting for it if needed. */
  ImportItem next() throws InterruptedException {
    return queue.take();
  }

  /** Gives back a batch whose points were written. */
  void recycle(ImportItem.Points points) {
    recycled.add(points.batch());
  }

  /** Stops the thread if it is still reading (the consumer gave up). */
  @Override
  public void close() {
    thread.interrupt();
  }

  private void decodeAll(List<TensorBoardRun> runs) {
    try {
      for (TensorBoardRun run : runs) {
        // One decoder per run: writers put a tag's metadata only on its first value in the run.
        EventDecoder decoder = new EventDecoder();
        Batcher batcher = new Batcher(run.name());
        List<Path> files = run.eventFiles();
        for (Path file : files) {
          ImportItem.FileDone done =
              ImportItem.FileDone.read(file, decoder, batcher, file == files.getLast());
          batcher.handOver();
          queue.put(done);
        }
      }
      queue.put(new ImportItem.End());
    } catch (InterruptedException | ImportCancelled e) {
      // The consumer gave up; nobody waits for more.
    } catch (RuntimeException | Error e) {
      try {
        queue.put(new ImportItem.Crashed(e));
      } catch (InterruptedException ignored) {
        // as above
      }
    }
  }

  /** Collects a run's points into batches and puts each full batch on the queue. */
  private final class Batcher implements EventListener {
    private final String run;
    private PointBatch batch;

    Batcher(String run) {
      this.run = run;
    }

    @Override
    public void point(SummaryPoint point) {
      batch().add(point);
      handOverIfFull();
    }

    @Override
    public void scalar(String tag, long step, double wallTimeSeconds, double value) {
      batch().addScalar(tag, step, wallTimeSeconds, value);
      handOverIfFull();
    }

    @Override
    public void histogram(HistogramFields histogram) {
      batch().addHistogram(histogram);
      handOverIfFull();
    }

    @Override
    public void corruption(Corruption corruption) {
      handOver();
      put(new ImportItem.Damage(corruption));
    }

    void handOver() {
      if (batch != null && batch.size() > 0) {
        put(new ImportItem.Points(batch));
        batch = null;
      }
    }

    private PointBatch batch() {
      if (batch == null) {
        PointBatch reused = recycled.poll();
        batch = (reused != null ? reused : new PointBatch(BATCH_POINTS)).reset(run);
      }
      return batch;
    }

    private void handOverIfFull() {
      if (batch.isFull()) {
        handOver();
      }
    }

    private void put(ImportItem item) {
      try {
        queue.put(item);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ImportCancelled();
      }
    }
  }
}
