package io.flightdeck.tensorboard;

import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Property;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TagCacheTest {
  /**
   * Tags looked up in a repeating order with random jumps, from pools small enough to stay cached
   * and large enough to collide, at random offsets of a shared buffer: always the decoded tag.
   */
  @Test
  void answersTheDecodedTag() {
    Property.tries(200)
        .check(
            in -> answersDecoded(in.draw("distinct", integers(1, 3000)), in.draw("seed", longs())));
  }

  private static void answersDecoded(int distinct, long seed) {
    Random random = new Random(seed);
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < distinct; i++) {
      pool.add(random.nextInt(4) == 0 ? "layer." + i + "/grad_norm" : "t" + i + "/é");
    }
    TagCache cache = new TagCache();
    byte[] buffer = new byte[256];
    int next = 0;
    for (int lookup = 0; lookup < 5000; lookup++) {
      next = random.nextInt(10) == 0 ? random.nextInt(distinct) : (next + 1) % distinct;
      byte[] tag = pool.get(next).getBytes(StandardCharsets.UTF_8);
      int offset = random.nextInt(buffer.length - tag.length);
      random.nextBytes(buffer);
      System.arraycopy(tag, 0, buffer, offset, tag.length);
      assertThat(cache.get(buffer, offset, tag.length)).isEqualTo(pool.get(next));
    }
  }

  /**
   * Two tags of one length that differ in a single byte, wherever it is (the compare reads eight
   * bytes at a time, the last eight overlapping), at the very end of the buffer: never confused,
   * whether the tag is the usual follower or found by its hash.
   */
  @Test
  void tagsDifferingInOneByteAreNeverConfused() {
    Property.tries(300)
        .check(
            in ->
                neverConfused(
                    in.draw("length", integers(1, 40)),
                    in.draw("differsAt", integers(0, 39)),
                    in.draw("seed", longs())));
  }

  private static void neverConfused(int length, int differsAt, long seed) {
    Random random = new Random(seed);
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    String a = new String(chars);
    chars[differsAt % length] = chars[differsAt % length] == 'z' ? 'y' : 'z';
    String b = new String(chars);
    byte[] bufferA = new byte[64];
    byte[] bufferB = new byte[64];
    System.arraycopy(a.getBytes(StandardCharsets.US_ASCII), 0, bufferA, 64 - length, length);
    System.arraycopy(b.getBytes(StandardCharsets.US_ASCII), 0, bufferB, 64 - length, length);
    TagCache cache = new TagCache();
    for (int round = 0; round < 3; round++) {
      assertThat(cache.get(bufferA, 64 - length, length)).isEqualTo(a);
      assertThat(cache.get(bufferB, 64 - length, length)).isEqualTo(b);
      assertThat(cache.get(bufferB, 64 - length, length)).isEqualTo(b);
      assertThat(cache.get(bufferA, 64 - length, length)).isEqualTo(a);
    }
  }

  @Test
  void prefixesAndLongerTagsAreNotTakenForTheTagThatUsuallyFollows() {
    TagCache cache = new TagCache();
    byte[] bytes = "train/loss_ema".getBytes(StandardCharsets.UTF_8);
    for (int step = 0; step < 3; step++) {
      assertThat(cache.get(bytes, 0, 5)).isEqualTo("train");
      assertThat(cache.get(bytes, 0, 10)).isEqualTo("train/loss");
      assertThat(cache.get(bytes, 0, 14)).isEqualTo("train/loss_ema");
    }
    assertThat(cache.get(bytes, 0, 5)).isEqualTo("train");
    assertThat(cache.get(bytes, 0, 14)).isEqualTo("train/loss_ema");
    assertThat(cache.get(bytes, 0, 10)).isEqualTo("train/loss");
  }

  @Test
  void invalidUtf8IsNull() {
    TagCache cache = new TagCache();
    byte[] bytes = {'a', (byte) 0xff, 'b'};
    assertThat(cache.get(bytes, 0, 1)).isEqualTo("a");
    assertThat(cache.get(bytes, 0, 3)).isNull();
    assertThat(cache.get(bytes, 0, 1)).isEqualTo("a");
    assertThat(cache.get(bytes, 0, 3)).isNull();
  }
}
