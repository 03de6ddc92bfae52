package io.flightdeck.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The import's open-chunk arrays come back for reuse, up to a byte budget. */
class OpenChunkArraysTest {
  final OpenChunkArrays arrays = new OpenChunkArrays();

  @Test
  void aPairGivenBackIsTheNextOneTakenOfItsCapacity() {
    for (int capacity = OpenChunkArrays.FIRST_CAPACITY;
        capacity <= OpenChunkArrays.MAX_CAPACITY;
        capacity *= 2) {
      long[] t = arrays.times(capacity);
      double[] v = arrays.values(capacity);
      assertThat(t).hasSize(capacity);
      assertThat(v).hasSize(capacity);
      arrays.giveBack(t, v);
      assertThat(arrays.keptBytes()).isEqualTo(capacity * 16L);
      assertThat(arrays.times(capacity)).isSameAs(t);
      assertThat(arrays.values(capacity)).isSameAs(v);
      assertThat(arrays.keptBytes()).isZero();
      assertThat(arrays.times(capacity * 2)).isNotSameAs(t);
    }
  }

  @Test
  void theArraysOfAChunkRunningPastItsSizeAreKept() {
    int overflow = 2 * ImportedSeries.SAMPLES_PER_CHUNK;
    long[] t = arrays.times(overflow);
    double[] v = arrays.values(overflow);
    arrays.giveBack(t, v);
    assertThat(arrays.times(overflow)).isSameAs(t);
  }

  @Test
  void largerArraysAreNotKept() {
    int capacity = 2 * OpenChunkArrays.MAX_CAPACITY;
    arrays.giveBack(new long[capacity], new double[capacity]);
    assertThat(arrays.keptBytes()).isZero();
  }

  @Test
  void keepingStopsAtTheByteBudget() {
    int capacity = OpenChunkArrays.MAX_CAPACITY;
    long pairBytes = capacity * 16L;
    long fitting = OpenChunkArrays.MAX_KEPT_BYTES / pairBytes;
    for (long i = 0; i < fitting + 3; i++) {
      arrays.giveBack(new long[capacity], new double[capacity]);
    }
    assertThat(arrays.keptBytes()).isEqualTo(fitting * pairBytes);
    for (long i = 0; i < fitting; i++) {
      arrays.times(capacity);
      arrays.values(capacity);
    }
    assertThat(arrays.keptBytes()).isZero();
    arrays.times(capacity); // from an empty pool: a new pair, which the count leaves alone
    arrays.values(capacity);
    assertThat(arrays.keptBytes()).isZero();
  }
}
