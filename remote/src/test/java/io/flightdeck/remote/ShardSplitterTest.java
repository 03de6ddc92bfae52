package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardSplitterTest {
  private static final int SERIES = 50;

  private static byte[] encoded(int rounds) {
    Labels[] labels = new Labels[SERIES * rounds];
    long[] timestamps = new long[labels.length];
    double[] values = new double[labels.length];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = Labels.of("__name__", "m", "series", Integer.toString(i % SERIES));
      timestamps[i] = i / SERIES;
      values[i] = i;
    }
    return TimeSeriesEncoder.encode(labels, timestamps, values, 0, labels.length);
  }

  @Test
  void everyEntryLandsInExactlyOneShardAndEachSeriesInOneShardOnly() throws Exception {
    byte[] payload = encoded(4);
    List<ShardSplitter.Part> parts = ShardSplitter.split(payload, 4);

    assertThat(parts.stream().mapToInt(ShardSplitter.Part::samples).sum()).isEqualTo(SERIES * 4);
    assertThat(parts.stream().mapToInt(p -> p.payload().length).sum()).isEqualTo(payload.length);
    assertThat(parts).hasSizeGreaterThan(1);
    // A part of one round of series splits the same way as the same series in four rounds.
    List<ShardSplitter.Part> oneRound = ShardSplitter.split(encoded(1), 4);
    assertThat(oneRound).hasSameSizeAs(parts);
    for (int i = 0; i < parts.size(); i++) {
      assertThat(parts.get(i).samples()).isEqualTo(4 * oneRound.get(i).samples());
    }
  }

  @Test
  void oneShardKeepsThePayloadAsItIs() throws Exception {
    byte[] payload = encoded(2);
    List<ShardSplitter.Part> parts = ShardSplitter.split(payload, 1);
    assertThat(parts).hasSize(1);
    assertThat(parts.get(0).payload()).isEqualTo(payload);
    assertThat(parts.get(0).samples()).isEqualTo(2 * SERIES);
  }
}
