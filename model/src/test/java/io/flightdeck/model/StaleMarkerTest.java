package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StaleMarkerTest {

  @Test
  void isTheReservedNanBitPattern() {
    assertThat(Double.doubleToRawLongBits(StaleMarker.VALUE)).isEqualTo(0x7ff0000000000002L);
    assertThat(StaleMarker.is(StaleMarker.VALUE)).isTrue();
    assertThat(StaleMarker.is(Double.longBitsToDouble(0x7ff0000000000002L))).isTrue();
  }

  @Test
  void isANanSoOnlyItsBitsTellItApart() {
    assertThat(Double.isNaN(StaleMarker.VALUE)).isTrue();
    assertThat(StaleMarker.is(Double.NaN)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      longs = {
        0x7ff8000000000000L, // the canonical quiet NaN
        0x7ff0000000000001L, // the NaN next to the marker
        0x7ff0000000000003L,
        0xfff0000000000002L, // the marker with the sign bit set
        0x7ff0000000000000L, // +Inf
        0L
      })
  void otherBitPatternsAreNotStale(long bits) {
    assertThat(StaleMarker.is(Double.longBitsToDouble(bits))).isFalse();
  }
}
