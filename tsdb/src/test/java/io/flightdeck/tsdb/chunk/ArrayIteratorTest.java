package io.flightdeck.tsdb.chunk;

import static io.flightdeck.testkit.Generators.integers;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.testkit.Property;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrayIteratorTest {
  /** A decoded chunk of {@code count} samples 10 ms apart from t=100, showing {@code visible}. */
  private static ArrayIterator chunk(int count, int visible) {
    long[] times = new long[count];
    double[] values = new double[count];
    for (int i = 0; i < count; i++) {
      times[i] = 100 + 10L * i;
      values[i] = i * 0.5;
    }
    DecimalChunk.Encoder encoder = new DecimalChunk.Encoder();
    encoder.prepare(times, values, 0, count);
    byte[] data = new byte[DecimalChunk.maxEncodedSize(count)];
    int length = encoder.compress(data, 0);
    return new ArrayIterator().resetDecimal(data, 0, length, count, visible);
  }

  @Test
  void drainingCopiesWhatStepwiseIterationVisitsAndStopsOnTheNextSample() {
    Property.tries(300)
        .check(
            in ->
                drainsAsStepwise(
                    in.draw("count", integers(1, 300)),
                    in.draw("visible", integers(0, 300)),
                    in.draw("seekTo", integers(0, 3_200)),
                    in.draw("maxt", integers(0, 3_200))));
  }

  private static void drainsAsStepwise(int count, int visible, int seekTo, int maxt) {
    ArrayIterator stepwise = chunk(count, visible);
    List<String> expected = new ArrayList<>();
    boolean expectedStopped = false;
    Long expectedNext = null;
    if (stepwise.seek(seekTo)) {
      do {
        if (stepwise.timestamp() > maxt) {
          expectedStopped = true;
          expectedNext = stepwise.timestamp();
          break;
        }
        expected.add(stepwise.timestamp() + "=" + stepwise.value());
      } while (stepwise.next());
    }

    ArrayIterator draining = chunk(count, visible);
    SampleBuffer out = new SampleBuffer(1);
    boolean stopped = draining.seek(seekTo) && draining.drainTo(out, maxt);
    List<String> actual = new ArrayList<>();
    for (int i = 0; i < out.size(); i++) {
      actual.add(out.timestamps()[i] + "=" + out.values()[i]);
    }

    assertThat(actual).isEqualTo(expected);
    assertThat(stopped).isEqualTo(expectedStopped);
    if (stopped) {
      assertThat(draining.timestamp()).isEqualTo(expectedNext);
    }
  }
}
