package io.flightdeck.remote;

import io.flightdeck.config.QueueConfig;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.StorageUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xerial.snappy.Snappy;

/**
 * Sends what is appended to one remote-write 1.0 endpoint, through a disk queue that survives
 * restarts and outages. Committed samples are on disk when {@code commit()} returns; one thread
 * then sends them in batches of up to {@code max_samples_per_send}, or fewer once the oldest has
 * waited {@code batch_send_deadline}. Like Prometheus it retries 5xx, 429 and network errors
 * forever with exponential backoff from {@code min_backoff} to {@code max_backoff} (a 429's
 * Retry-After in seconds lengthens the wait), and drops a batch refused with any other status. One
 * batch is in flight at a time, split among {@code min_shards} shards by a hash of each series'
 * labels and sent in parallel, so samples of a series arrive in order; a batch is done when every
 * part is. There is no resharding towards {@code max_shards}, which is not used. Delivery is at
 * least once: a batch sent but not yet marked done when the process dies is sent again after the
 * restart.
 *
 * <p>Lifecycle: {@link #start()}, then appenders from any thread, then {@link #close()}, which
 * keeps sending for up to the flush timeout and leaves the rest in the queue for the next start.
 */
public final class RemoteWriteSender implements Appendable, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteWriteSender.class);

  /** How long the sending thread waits for data before checking for a shutdown. */
  private static final long IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final RemoteWriteSenderOptions options;
  private final QueueConfig queueConfig;
  private final int shardCount;
  private final LongAdder samplesSent = new LongAdder();
  private final LongAdder samplesFailed = new LongAdder();
  private final LongAdder samplesRetried = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private SendQueue queue;
  private RemoteWriteClient client;
  private Thread thread;

  /** Sends the parts of a batch with more than one shard; null with one. */
  private ExecutorService shards;

  private volatile boolean stopping;
  private volatile long flushUntilNanos;

  public RemoteWriteSender(RemoteWriteSenderOptions options) {
    this.options = options;
    this.queueConfig = options.config().queueConfig();
    this.shardCount = Math.max(1, queueConfig.minShards());
  }

  /** Opens the queue (sending what an earlier run left in it) and starts the sending thread. */
  public void start() throws IOException {
    try {
      client = new RemoteWriteClient(options.config());
    } catch (GeneralSecurityException e) {
      throw new IOException(
          "remote write to " + options.config().url() + ": bad tls_config: " + e.getMessage(), e);
    }
    queue = SendQueue.open(options.queueDir(), options.maxQueueBytes());
    if (queue.pendingSamples() > 0) {
      LOG.info(
          "remote write to {}: {} samples left in {} by an earlier run will be sent first",
          url(),
          queue.pendingSamples(),
          options.queueDir());
    }
    if (shardCount > 1) {
      AtomicInteger next = new AtomicInteger();
      shards =
          Executors.newFixedThreadPool(
              shardCount,
              r -> new Thread(r, "remote-write-" + name() + "-shard-" + next.getAndIncrement()));
    }
    thread = new Thread(this::run, "remote-write-" + name());
    thread.start();
  }

  @Override
  public Appender appender() {
    if (stopping) {
      throw new StorageUnavailableException("remote write to " + url() + " is shutting down", null);
    }
    return new SenderAppender(
        queue, options.config().writeRelabelConfigs(), queueConfig.maxSamplesPerSend());
  }

  /** The endpoint's {@code name}, or the queue directory's name when it has none. */
  public String name() {
    String name = options.config().name();
    return name.isEmpty() ? options.queueDir().getFileName().toString() : name;
  }

  public String url() {
    return options.config().url().toString();
  }

  /** Samples waiting in the queue, the batch being sent included. */
  public long pendingSamples() {
    return queue.pendingSamples();
  }

  /** Bytes of the queue's files. */
  public long pendingBytes() {
    return queue.bytes();
  }

  /** Samples the endpoint accepted. */
  public long samplesSent() {
    return samplesSent.sum();
  }

  /** Samples refused by the endpoint with a status that is not retried (4xx but 429). */
  public long samplesFailed() {
    return samplesFailed.sum();
  }

  /** Samples dropped from a full queue (or lost to a damaged queue file). */
  public long samplesDropped() {
    return queue.droppedSamples();
  }

  /** Requests sent again after a 5xx, a 429 or a network error. */
  public long retries() {
    return retries.sum();
  }

  /** Samples in the requests counted by {@link #retries()}. */
  public long samplesRetried() {
    return samplesRetried.sum();
  }

  private void run() {
    long deadline = queueConfig.batchSendDeadline().toNanos();
    while (true) {
      boolean flushing = stopping;
      if (flushing && (queue.pendingSamples() == 0 || System.nanoTime() - flushUntilNanos >= 0)) {
        return;
      }
      try {
        SendQueue.Batch batch =
            queue.next(
                queueConfig.maxSamplesPerSend(),
                deadline,
                flushing ? 0 : IDLE_WAIT_NANOS,
                flushing);
        if (batch == null) {
          continue;
        }
        if (!deliver(batch)) {
          return; // shutting down: the batch stays queued for the next run
        }
        queue.ack(batch);
      } catch (InterruptedException e) {
        return; // close() ran out of patience; nothing in flight was marked done
      } catch (IOException | UncheckedIOException e) {
        LOG.error("remote write to {}: the queue in {} failed", url(), options.queueDir(), e);
        if (!pause(queueConfig.maxBackoff().toMillis())) {
          return;
        }
      }
    }
  }

  /**
   * Sends a batch, split among the shards, until every part is accepted or refused for good: true;
   * false when stopped while retrying (the whole batch then stays queued).
   */
  private boolean deliver(SendQueue.Batch batch) throws IOException, InterruptedException {
    if (shards == null) {
      return deliverPart(batch.payload(), batch.samples());
    }
    List<Future<Boolean>> parts = new ArrayList<>();
    for (ShardSplitter.Part part : ShardSplitter.split(batch.payload(), shardCount)) {
      parts.add(shards.submit(() -> deliverPart(part.payload(), part.samples())));
    }
    boolean done = true;
    for (Future<Boolean> part : parts) {
      try {
        done &= part.get();
      } catch (ExecutionException e) {
        throw new IOException("a shard of remote write to " + url() + " failed", e.getCause());
      }
    }
    return done;
  }

  /** Sends until it succeeds or is refused for good: true; false when stopped while retrying. */
  private boolean deliverPart(byte[] payload, int samples)
      throws IOException, InterruptedException {
    byte[] body = Snappy.compress(payload);
    long backoff = queueConfig.minBackoff().toMillis();
    for (int attempt = 0; ; attempt++) {
      String problem;
      long wait = backoff;
      try {
        RemoteWriteClient.Answer answer = client.post(body, attempt);
        int status = answer.status();
        if (status / 100 == 2) {
          samplesSent.add(samples);
          if (attempt > 0) {
            LOG.info("remote write to {} works again after {} retries", url(), attempt);
          }
          return true;
        }
        if (status / 100 != 5 && status != 429) {
          samplesFailed.add(samples);
          LOG.warn(
              "remote write to {} refused {} samples with HTTP {}: {}; they are dropped",
              url(),
              samples,
              status,
              answer.body().strip());
          return true;
        }
        problem = "HTTP " + status + ": " + answer.body().strip();
        wait = Math.max(wait, answer.retryAfterMillis());
      } catch (IOException e) {
        problem = e.toString();
      }
      if (attempt == 0) {
        LOG.warn("remote write to {} failed ({}); retrying with backoff", url(), problem);
      }
      if (stopping && System.nanoTime() - flushUntilNanos >= 0) {
        return false;
      }
      retries.increment();
      samplesRetried.add(samples);
      if (!pause(wait)) {
        return false;
      }
      backoff = Math.min(backoff * 2, queueConfig.maxBackoff().toMillis());
    }
  }

  /** Sleeps, shortened to the end of the flush when stopping; false when interrupted. */
  private boolean pause(long millis) {
    try {
      long left = millis;
      if (stopping) {
        left = Math.min(left, TimeUnit.NANOSECONDS.toMillis(flushUntilNanos - System.nanoTime()));
      }
      if (left > 0) {
        Thread.sleep(left);
      }
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /**
   * Stops taking samples, sends what it can within the flush timeout and closes the queue; what is
   * left is sent by the next {@link #start()} on the same directory.
   */
  @Override
  public void close() throws IOException {
    if (thread == null) {
      return;
    }
    flushUntilNanos = System.nanoTime() + options.flushTimeout().toNanos();
    stopping = true;
    queue.wakeUp();
    try {
      thread.join(options.flushTimeout().toMillis() + 1000);
      if (thread.isAlive()) {
        thread.interrupt(); // a request hanging past the flush timeout
        thread.join(TimeUnit.SECONDS.toMillis(10));
      }
      if (shards != null) {
        shards.shutdownNow();
        shards.awaitTermination(10, TimeUnit.SECONDS);
        shards = null;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long left = queue.pendingSamples();
    queue.close();
    thread = null;
    if (left > 0) {
      LOG.info(
          "remote write to {}: {} samples stay queued in {} for the next start",
          url(),
          left,
          options.queueDir());
    }
  }

  /** The endpoint's settings, for log lines and metrics labels. */
  public RemoteWriteConfig config() {
    return options.config();
  }
}
