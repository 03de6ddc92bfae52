package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 during ingestion (DESIGN.md section 6): writers stream remote-write batches into a child
 * server that is killed at random moments and restarted on the same directory. Afterwards every
 * acknowledged sample must be stored exactly once and bit-exact; a batch that was cut off may be
 * stored or not, but never in part. Small blocks and a 1 s compaction interval in some rounds let
 * the kills land in block writes and WAL checkpoints too. Rerun a failure with {@code
 * -Dflightdeck.crash.seed=<seed from the message>}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CrashRecoveryTest {
  private static final long SEED = Long.getLong("flightdeck.crash.seed", 0x5eed_cafeL);
  private static final int KILLS = 10;
  private static final int WRITERS = 2;
  private static final int SERIES_PER_WRITER = 200;
  private static final String METRIC = "crash_test_samples";

  /** Each batch moves its writer's clock on by this; its samples lie within. */
  private static final long BATCH_STEP_MS = 10_000;

  private static final long SAMPLE_STEP_MS = 2_000;

  /**
   * At most 125 batches a second per writer: enough to keep requests in flight at every kill, and a
   * bound on the samples the ledger and the final check hold on a fast machine.
   */
  private static final long MIN_BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(8);

  @Test
  void everyAcknowledgedSampleSurvivesRepeatedKills(@TempDir Path tmp) throws Exception {
    Random random = new Random(SEED);
    Path data = tmp.resolve("data");
    long now = System.currentTimeMillis();
    // Twelve hours of history at 10 s a batch spans many one-minute blocks, and paced writers
    // cannot use it up in the rounds' at most 22 s; the end stays well inside the 10 minutes
    // into the future that the server accepts.
    long first = now - Duration.ofHours(12).toMillis();
    long last = now + Duration.ofMinutes(5).toMillis();
    BatchLedger ledger = new BatchLedger();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    List<Writer> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      writers.add(new Writer(w, new Random(random.nextLong()), first, last, ledger, unexpected));
    }
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      for (int round = 0; round <= KILLS; round++) {
        boolean killRound = round < KILLS;
        // Mostly compacting every second, so kills land in block writes and checkpoints; now and
        // then a backlog builds up in the head for the next round to flush.
        String compactionInterval = random.nextInt(4) == 0 ? "1m" : "1s";
        long writeMillis = 300 + random.nextInt(1701);
        try (FlightdeckServerProcess server =
            FlightdeckServerProcess.start(
                data,
                tmp.resolve("round-" + round + ".log"),
                "--storage.tsdb.min-block-duration=1m",
                "--storage.tsdb.compaction-interval=" + compactionInterval)) {
          server.awaitReady();
          AtomicBoolean halting = new AtomicBoolean();
          URI write = server.uri("/api/v1/write");
          List<Future<?>> running = new ArrayList<>();
          for (Writer writer : writers) {
            running.add(pool.submit(() -> writer.writeUntilHalted(write, halting)));
          }
          Thread.sleep(writeMillis);
          halting.set(true); // from here on a failed request is the expected effect of the kill
          if (killRound) {
            server.kill();
          }
          for (Future<?> writer : running) {
            writer.get(3, TimeUnit.MINUTES);
          }
          if (!killRound) {
            server.stop();
          }
          assertThat(unexpected)
              .as(
                  "seed %d, round %d: requests failed while the server was up\n%s",
                  SEED, round, server.log())
              .isEmpty();
        }
      }
    } finally {
      pool.shutdownNow();
    }

    int unacknowledgedStored;
    try {
      unacknowledgedStored =
          ledger.verify(StoredSamples.read(data, Matcher.equal("__name__", METRIC)));
    } catch (AssertionError e) {
      throw new AssertionError("seed " + SEED + ": " + e.getMessage(), e);
    }
    assertThat(ledger.acknowledged()).as("batches acknowledged").isGreaterThan(KILLS);
    assertThat(blockCount(data))
        .as("blocks on disk: without them the kills never met a compaction")
        .isPositive();
    System.out.printf(
        "crash test, seed %d: %d kills, %d batches acknowledged, %d cut off (%d of them stored),"
            + " %d blocks%n",
        SEED,
        KILLS,
        ledger.acknowledged(),
        ledger.unacknowledged(),
        unacknowledgedStored,
        blockCount(data));
  }

  private static long blockCount(Path data) throws IOException {
    try (Stream<Path> entries = Files.list(data)) {
      return entries.filter(dir -> Files.isRegularFile(dir.resolve("meta.json"))).count();
    }
  }

  /**
   * Sends batches over its own series with strictly increasing timestamps, never reusing one, so
   * that a batch cut off by a kill can never collide with a later one.
   */
  private static final class Writer {
    private final int id;
    private final Random random;
    private final long last;
    private final BatchLedger ledger;
    private final List<String> unexpected;
    private final List<Labels> series = new ArrayList<>();
    private long next;

    Writer(
        int id, Random random, long first, long last, BatchLedger ledger, List<String> unexpected) {
      this.id = id;
      this.random = random;
      this.next = first;
      this.last = last;
      this.ledger = ledger;
      this.unexpected = unexpected;
      for (int s = 0; s < SERIES_PER_WRITER; s++) {
        series.add(
            Labels.of("__name__", METRIC, "writer", Integer.toString(id), "series", "s" + s));
      }
    }

    /** Writes until {@code halting} is set or a request fails; bounded by the writer's clock. */
    void writeUntilHalted(URI uri, AtomicBoolean halting) {
      long due = System.nanoTime();
      while (!halting.get() && next <= last) {
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        due = System.nanoTime() + MIN_BATCH_NANOS;
        List<TimeSeries> batch = nextBatch();
        HttpResponse<String> response;
        try {
          response = TestHttp.remoteWrite(uri, RemoteWriteEncoder.encode(batch));
        } catch (IOException e) {
          ledger.record(batch, false);
          if (!halting.get()) {
            unexpected.add("writer " + id + ": " + e);
          }
          return;
        } catch (InterruptedException e) {
          ledger.record(batch, false);
          Thread.currentThread().interrupt();
          return;
        }
        ledger.record(batch, response.statusCode() == 204);
        if (response.statusCode() != 204) {
          unexpected.add(
              "writer " + id + ": status " + response.statusCode() + ": " + response.body());
          return;
        }
      }
    }

    private List<TimeSeries> nextBatch() {
      long[] timestamps = new long[1 + random.nextInt(5)];
      for (int j = 0; j < timestamps.length; j++) {
        timestamps[j] = next + j * SAMPLE_STEP_MS;
      }
      next += BATCH_STEP_MS;
      List<TimeSeries> batch = new ArrayList<>(series.size());
      for (Labels labels : series) {
        double[] values = new double[timestamps.length];
        for (int j = 0; j < values.length; j++) {
          values[j] = (random.nextDouble() - 0.5) * 1e9; // full 52-bit mantissas: unique, exact
        }
        batch.add(new TimeSeries(labels, timestamps, values));
      }
      return batch;
    }
  }
}
