package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.StaleMarker;
import org.junit.jupiter.api.Test;

class AlmostEqualTest {

  @Test
  void relativeToleranceIsOnePartInAMillion() {
    assertThat(AlmostEqual.equal(1_000_000, 1_000_001)).isTrue();
    assertThat(AlmostEqual.equal(1_000_000, 1_000_003)).isFalse();
    assertThat(AlmostEqual.equal(0.1 + 0.2, 0.3)).isTrue();
    assertThat(AlmostEqual.equal(-2.5, -2.5000001)).isTrue();
    assertThat(AlmostEqual.equal(-2.5, 2.5)).isFalse();
  }

  @Test
  void zeroOnlyEqualsAlmostZero() {
    assertThat(AlmostEqual.equal(0, 0)).isTrue();
    assertThat(AlmostEqual.equal(0, -0.0)).isTrue();
    assertThat(AlmostEqual.equal(0, 1e-300)).isFalse();
    assertThat(AlmostEqual.equal(1e-300, 0)).isFalse();
    assertThat(AlmostEqual.equal(0, Double.MIN_VALUE)).isTrue();
  }

  @Test
  void infinitiesAreExact() {
    assertThat(AlmostEqual.equal(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY)).isTrue();
    assertThat(AlmostEqual.equal(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY)).isTrue();
    assertThat(AlmostEqual.equal(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)).isFalse();
    assertThat(AlmostEqual.equal(Double.POSITIVE_INFINITY, Double.MAX_VALUE)).isFalse();
  }

  @Test
  void anyNanEqualsAnyNanButTheStaleMarkerOnlyItself() {
    double otherNan = Double.longBitsToDouble(0x7ff8000000000001L);
    assertThat(AlmostEqual.equal(Double.NaN, otherNan)).isTrue();
    assertThat(AlmostEqual.equal(Double.NaN, 1)).isFalse();
    assertThat(AlmostEqual.equal(StaleMarker.VALUE, StaleMarker.VALUE)).isTrue();
    assertThat(AlmostEqual.equal(StaleMarker.VALUE, Double.NaN)).isFalse();
    assertThat(AlmostEqual.equal(Double.NaN, StaleMarker.VALUE)).isFalse();
  }
}
