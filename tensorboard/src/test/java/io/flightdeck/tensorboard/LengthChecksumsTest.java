package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class LengthChecksumsTest {
  /**
   * Lengths in any order, repeated, sharing slots, and those the slots start with: each time the
   * checksum of exactly its own eight bytes.
   */
  @Property(tries = 500)
  void everyLengthGetsTheChecksumOfItsOwnBytes(@ForAll("lengths") List<Long> lengths) {
    LengthChecksums checksums = new LengthChecksums();
    for (long length : lengths) {
      byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(length).array();
      assertThat(checksums.of(length)).isEqualTo(MaskedCrc32c.of(bytes, 0, 8));
    }
  }

  @Provide
  Arbitrary<List<Long>> lengths() {
    return Arbitraries.oneOf(
            Arbitraries.longs().between(0, 200),
            Arbitraries.longs().between(0, 4).map(k -> 37 + 64 * k),
            Arbitraries.longs(),
            Arbitraries.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 64L, 127L))
        .list()
        .ofMaxSize(200);
  }
}
