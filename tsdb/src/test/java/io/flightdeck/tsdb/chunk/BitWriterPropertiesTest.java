package io.flightdeck.tsdb.chunk;

import static io.flightdeck.testkit.Generators.booleans;
import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Property;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Multi-bit writes give the same bits as writing one bit at a time, at every alignment and buffer
 * size, and leave the bits after the end zero.
 */
class BitWriterPropertiesTest {
  record Write(long value, int count, boolean single) {}

  @Test
  void writesTheSameBitsAsOneBitAtATime() {
    Property.tries(1000)
        .check(
            in ->
                writesBitwise(
                    in.draw("writes", writes()), in.draw("initialBytes", integers(1, 40))));
  }

  private static void writesBitwise(List<Write> writes, int initialBytes) {
    BitWriter writer = new BitWriter(initialBytes);
    StringBuilder expected = new StringBuilder();
    for (Write w : writes) {
      if (w.single()) {
        boolean bit = (w.value() & 1) != 0;
        writer.writeBit(bit);
        expected.append(bit ? '1' : '0');
      } else {
        writer.writeBits(w.value(), w.count());
        for (int i = w.count() - 1; i >= 0; i--) {
          expected.append(((w.value() >>> i) & 1) != 0 ? '1' : '0');
        }
      }
    }
    assertThat(writer.bitLength()).isEqualTo(expected.length());
    byte[] bytes = Arrays.copyOf(writer.buffer(), writer.buffer().length);
    StringBuilder actual = new StringBuilder();
    for (int i = 0; i < bytes.length * 8; i++) {
      actual.append(((bytes[i >>> 3] >>> (7 - (i & 7))) & 1) != 0 ? '1' : '0');
    }
    assertThat(actual.substring(0, expected.length())).isEqualTo(expected.toString());
    assertThat(actual.substring(expected.length())).as("nothing past the end").doesNotContain("1");
  }

  private static Gen<List<Write>> writes() {
    Gen<Long> values = longs();
    Gen<Integer> counts = integers(0, 64);
    Gen<Boolean> single = booleans();
    Gen<Write> write = c -> new Write(values.generate(c), counts.generate(c), single.generate(c));
    return write.list(0, 60);
  }
}
