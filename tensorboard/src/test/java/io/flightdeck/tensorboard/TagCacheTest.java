package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class TagCacheTest {
  /**
   * Tags looked up in a repeating order with random jumps, from pools small enough to stay cached
   * and large enough to collide, at random offsets of a shared buffer: always the decoded tag.
   */
  @Property(tries = 200)
  void answersTheDecodedTag(
      @ForAll @IntRange(min = 1, max = 3000) int distinct, @ForAll long seed) {
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
