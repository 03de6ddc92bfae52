package io.flightdeck.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Turns a workload into remote-write requests the way Prometheus batches them: one request per
 * scrape slice per shard of series, about {@code maxSamplesPerSend} samples each, in time order.
 * Series are spread over shards in a seeded random order, as Prometheus spreads them by label hash.
 */
final class WorkloadEncoder {

  private final int maxSamplesPerSend;
  private final long seed;

  WorkloadEncoder(int maxSamplesPerSend, long seed) {
    this.maxSamplesPerSend = maxSamplesPerSend;
    this.seed = seed;
  }

  /** How many requests were written and their compressed body bytes. */
  record Encoded(int requests, long bodyBytes) {}

  Encoded encode(Workload workload, Path path) throws IOException {
    List<List<SeriesSpec>> shards = shard(workload.series());
    List<List<byte[]>> shardLabels = new ArrayList<>();
    for (List<SeriesSpec> shard : shards) {
      shardLabels.add(
          shard.stream().map(s -> RemoteWriteEncoder.encodeLabels(s.labels())).toList());
    }
    long bodyBytes = 0;
    try (RequestFile.Writer writer = new RequestFile.Writer(path, workload, shards.size())) {
      for (int slice = 0; slice < workload.slices(); slice++) {
        long timestampMs = workload.startMs() + slice * workload.intervalMs();
        for (int chunk = 0; chunk < shards.size(); chunk++) {
          List<SeriesSpec> shard = shards.get(chunk);
          double[] values = new double[shard.size()];
          for (int i = 0; i < values.length; i++) {
            values[i] = shard.get(i).values().next(slice);
          }
          byte[] body =
              RemoteWriteEncoder.encodeRequest(shardLabels.get(chunk), values, timestampMs);
          writer.append(new RequestFile.Request(slice, chunk, values.length, body));
          bodyBytes += body.length;
        }
      }
    }
    return new Encoded(workload.slices() * shards.size(), bodyBytes);
  }

  /** Splits series into equally sized shards of at most {@code maxSamplesPerSend}. */
  private List<List<SeriesSpec>> shard(List<SeriesSpec> series) {
    List<SeriesSpec> shuffled = new ArrayList<>(series);
    Collections.shuffle(shuffled, new Random(seed));
    int count = Math.ceilDiv(shuffled.size(), maxSamplesPerSend);
    List<List<SeriesSpec>> shards = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      shards.add(shuffled.subList(i * shuffled.size() / count, (i + 1) * shuffled.size() / count));
    }
    return shards;
  }
}
