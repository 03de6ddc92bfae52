package io.flightdeck.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

class SeriesByIdTest {
  private final SeriesById byId = new SeriesById();

  private static HeadSeries series(int id) {
    return new HeadSeries(id, Labels.of("__name__", "m", "id", Integer.toString(id)), 7_200_000);
  }

  @Test
  void findsSeriesAcrossPages() {
    for (int id = 1; id <= 10_000; id++) {
      byId.put(id, series(id));
    }
    assertThat(byId.size()).isEqualTo(10_000);
    assertThat(byId.get(1).id).isEqualTo(1);
    assertThat(byId.get(4096).id).isEqualTo(4096);
    assertThat(byId.get(10_000).id).isEqualTo(10_000);
    assertThat(byId.get(10_001)).isNull();
    assertThat(byId.get(0)).isNull();
    assertThat(byId.get(-5)).isNull();
    assertThat(byId.values()).extracting(s -> s.id).startsWith(1, 2, 3).endsWith(10_000);
  }

  @Test
  void removesOnlyTheSeriesItHolds() {
    HeadSeries first = series(7);
    byId.put(7, first);

    assertThat(byId.remove(7, series(7))).isFalse();
    assertThat(byId.get(7)).isSameAs(first);
    assertThat(byId.remove(7, first)).isTrue();
    assertThat(byId.get(7)).isNull();
    assertThat(byId.containsKey(7)).isFalse();
    assertThat(byId.size()).isZero();
    assertThat(byId.remove(123_456, first)).isFalse();
  }

  @Test
  void aPageEmptiedAndFilledAgainWorks() {
    for (int id = 5000; id < 5010; id++) {
      byId.put(id, series(id));
    }
    for (int id = 5000; id < 5010; id++) {
      assertThat(byId.remove(id, byId.get(id))).isTrue();
    }
    assertThat(byId.values()).isEmpty();
    byId.put(5005, series(5005));
    assertThat(byId.get(5005).id).isEqualTo(5005);
    assertThat(byId.size()).isEqualTo(1);
  }

  @Test
  void replacingASeriesKeepsTheCount() {
    byId.put(3, series(3));
    HeadSeries replacement = series(3);
    byId.put(3, replacement);
    assertThat(byId.size()).isEqualTo(1);
    assertThat(byId.get(3)).isSameAs(replacement);
  }

  @Test
  void idsFromAnyWhereInTheRangeAreHeld() {
    byId.put(Integer.MAX_VALUE - 1, series(Integer.MAX_VALUE - 1));
    assertThat(byId.get(Integer.MAX_VALUE - 1).id).isEqualTo(Integer.MAX_VALUE - 1);
    assertThatThrownBy(() -> byId.put(0, series(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("series id must be positive, got 0");
  }
}
