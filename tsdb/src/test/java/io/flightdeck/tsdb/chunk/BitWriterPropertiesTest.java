package io.flightdeck.tsdb.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Multi-bit writes give the same bits as writing one bit at a time, at every alignment and buffer
 * size, and leave the bits after the end zero.
 */
class BitWriterPropertiesTest {
  record Write(long value, int count, boolean single) {}

  @Property(tries = 1000)
  void writesTheSameBitsAsOneBitAtATime(
      @ForAll("writes") List<Write> writes, @ForAll @IntRange(min = 1, max = 40) int initialBytes) {
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

  @Provide
  Arbitrary<List<Write>> writes() {
    return Combinators.combine(
            Arbitraries.longs(), Arbitraries.integers().between(0, 64), Arbitraries.of(true, false))
        .as(Write::new)
        .list()
        .ofMaxSize(60);
  }
}
