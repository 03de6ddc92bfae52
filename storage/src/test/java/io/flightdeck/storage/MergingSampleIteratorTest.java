package io.flightdeck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class MergingSampleIteratorTest {
  /** Samples in arrays; its value tells which iterator a merged sample came from. */
  private static final class ArraySamples implements SampleIterator {
    private final long[] t;
    private final double[] v;
    private int i = -1;

    ArraySamples(long[] t, double[] v) {
      this.t = t;
      this.v = v;
    }

    @Override
    public boolean next() {
      return ++i < t.length;
    }

    @Override
    public boolean seek(long target) {
      if (i < 0) {
        i = 0;
      }
      while (i < t.length && t[i] < target) {
        i++;
      }
      return i < t.length;
    }

    @Override
    public long timestamp() {
      return t[i];
    }

    @Override
    public double value() {
      return v[i];
    }
  }

  private static MergingSampleIterator merged(List<long[]> parts) {
    List<SampleIterator> iterators = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      long[] t = parts.get(p);
      double[] v = new double[t.length];
      for (int k = 0; k < t.length; k++) {
        v[k] = p * 1_000_000 + t[k];
      }
      iterators.add(new ArraySamples(t, v));
    }
    return new MergingSampleIterator(iterators);
  }

  @Test
  void drainingCopiesWhatStepwiseIterationVisitsWhetherThePartsFollowOrOverlap() {
    Random random = new Random(20261201);
    for (int round = 0; round < 3_000; round++) {
      List<long[]> parts = new ArrayList<>();
      int count = 1 + random.nextInt(4);
      boolean consecutive = random.nextBoolean();
      long offset = 0;
      for (int p = 0; p < count; p++) {
        TreeSet<Long> times = new TreeSet<>();
        int samples = random.nextInt(12);
        for (int k = 0; k < samples; k++) {
          times.add(offset + random.nextInt(consecutive ? 20 : 60));
        }
        if (consecutive) {
          offset += 20;
        }
        parts.add(times.stream().mapToLong(Long::longValue).toArray());
      }
      long from = random.nextInt(70) - 5;
      long maxt = from + random.nextInt(80) - 10;

      SampleIterator stepwise = merged(parts);
      List<String> expected = new ArrayList<>();
      boolean expectedStopped = false;
      if (stepwise.seek(from)) {
        do {
          if (stepwise.timestamp() > maxt) {
            expectedStopped = true;
            break;
          }
          expected.add(stepwise.timestamp() + "=" + stepwise.value());
        } while (stepwise.next());
      }

      SampleIterator draining = merged(parts);
      SampleBuffer out = new SampleBuffer(1);
      out.add(-100, -1);
      boolean stopped = false;
      if (draining.seek(from)) {
        stopped = draining.drainTo(out, maxt);
      }
      List<String> actual = new ArrayList<>();
      for (int k = 1; k < out.size(); k++) {
        actual.add(out.timestamps()[k] + "=" + out.values()[k]);
      }

      String description = "round " + round + ", parts " + describe(parts) + ", from " + from;
      assertThat(actual).as(description + ", maxt " + maxt).isEqualTo(expected);
      assertThat(stopped).as(description + ", stopped").isEqualTo(expectedStopped);
      assertThat(out.timestamps()[0]).isEqualTo(-100);
    }
  }

  @Test
  void atASharedTimestampTheEarlierIteratorWins() {
    SampleIterator it = merged(List.of(new long[] {5, 10}, new long[] {1, 5, 7, 10, 12}));
    SampleBuffer out = new SampleBuffer(4);

    assertThat(it.next()).isTrue();
    assertThat(it.drainTo(out, 100)).isFalse();

    assertThat(java.util.Arrays.copyOf(out.timestamps(), out.size()))
        .containsExactly(1, 5, 7, 10, 12);
    assertThat(java.util.Arrays.copyOf(out.values(), out.size()))
        .containsExactly(1_000_001, 5, 1_000_007, 10, 1_000_012);
  }

  private static String describe(List<long[]> parts) {
    List<String> out = new ArrayList<>();
    for (long[] p : parts) {
      out.add(java.util.Arrays.toString(p));
    }
    return out.toString();
  }
}
