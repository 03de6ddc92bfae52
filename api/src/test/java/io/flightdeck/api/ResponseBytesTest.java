package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ResponseBytesTest {
  @Test
  void longsAreWrittenAsLongToStringWritesThem() {
    long[] specials = {0, 7, -7, 10, -10, 999, 1000, Long.MAX_VALUE, Long.MIN_VALUE, -1};
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 10_000; i++) {
      long value = i < specials.length ? specials[i] : random.nextLong() >> random.nextInt(64);
      ResponseBytes out = new ResponseBytes(1).append('[').append(value).append(']');
      assertThat(out.toString()).as("%d", value).isEqualTo("[" + value + "]");
    }
  }

  @Test
  void growsPastItsCapacityKeepingEveryByte() {
    ResponseBytes out = new ResponseBytes(2);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 1_000; i++) {
      out.append("ab", 1, 2).repeat('0', i % 4).append(i);
      out.write(',');
      out.write(new byte[] {'x', 'y', 'z'}, 1, 2);
      expected.append('b').append("0".repeat(i % 4)).append(i).append(',').append("yz");
    }
    assertThat(new String(out.toByteArray(), StandardCharsets.US_ASCII))
        .isEqualTo(expected.toString());
  }
}
