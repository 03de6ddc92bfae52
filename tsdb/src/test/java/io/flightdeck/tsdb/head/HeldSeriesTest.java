package io.flightdeck.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

class HeldSeriesTest {
  private final HeldSeries held = new HeldSeries();

  private static HeadSeries series(int id) {
    return new HeadSeries(id, Labels.of("__name__", "m", "id", Integer.toString(id)), 7_200_000);
  }

  @Test
  void findsWhatItHoldsByIdentity() {
    HeadSeries a = series(1);
    HeadSeries sameId = series(1);
    int slot = held.add(a);

    assertThat(held.find(a)).isEqualTo(slot);
    assertThat(held.find(sameId)).as("another object with the same id").isEqualTo(-1);
    assertThat(held.series(slot)).isSameAs(a);
    assertThat(held.hasSample(slot)).isFalse();
  }

  @Test
  void keepsTheNewestSampleOfEachSeries() {
    int a = held.add(series(1));
    int b = held.add(series(2));
    held.setLast(a, 1000, 1.5);
    held.setLast(b, 2000, -3);

    assertThat(held.hasSample(a)).isTrue();
    assertThat(held.lastTime(a)).isEqualTo(1000);
    assertThat(held.lastValue(a)).isEqualTo(1.5);
    assertThat(held.lastTime(b)).isEqualTo(2000);
    assertThat(held.lastValue(b)).isEqualTo(-3);
  }

  @Test
  void growsToManySeriesAndClears() {
    HeadSeries[] all = new HeadSeries[5000];
    for (int i = 0; i < all.length; i++) {
      all[i] = series(i * 4096 + 1); // ids that would collide in a table indexed by low bits
      assertThat(held.add(all[i])).isEqualTo(i);
      held.setLast(i, i, i);
    }
    for (int i = 0; i < all.length; i++) {
      assertThat(held.find(all[i])).isEqualTo(i);
      assertThat(held.lastTime(i)).isEqualTo(i);
    }
    assertThat(held.size()).isEqualTo(5000);

    held.clear();
    assertThat(held.size()).isZero();
    assertThat(held.find(all[0])).isEqualTo(-1);
    int slot = held.add(all[1]);
    assertThat(slot).isZero();
    assertThat(held.hasSample(slot)).as("a slot used again starts without a sample").isFalse();
  }
}
