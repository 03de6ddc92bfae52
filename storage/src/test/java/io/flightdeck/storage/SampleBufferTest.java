package io.flightdeck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SampleBufferTest {
  @Test
  void retainValuesKeepsTheAcceptedSamplesInOrderWhereverTheDroppedOnesAre() {
    Random random = new Random(5);
    for (int trial = 0; trial < 2_000; trial++) {
      int size = random.nextInt(40);
      double dropRate = random.nextInt(4) / 4.0; // none, some, most, all but a few
      SampleBuffer buffer = new SampleBuffer(1);
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        boolean dropped = random.nextDouble() < dropRate;
        double value = dropped ? -i - 1 : i;
        buffer.add(1_000L * i, value);
        if (!dropped) {
          expected.add(1_000L * i + "=" + value);
        }
      }
      buffer.retainValues(v -> v >= 0);
      List<String> kept = new ArrayList<>();
      for (int i = 0; i < buffer.size(); i++) {
        kept.add(buffer.timestamps()[i] + "=" + buffer.values()[i]);
      }
      assertThat(kept).as("trial %d", trial).isEqualTo(expected);
    }
  }
}
