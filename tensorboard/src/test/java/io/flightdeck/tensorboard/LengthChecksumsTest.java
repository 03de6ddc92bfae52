package io.flightdeck.tensorboard;

import static io.flightdeck.testkit.Generators.longs;
import static io.flightdeck.testkit.Generators.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

class LengthChecksumsTest {
  /**
   * Lengths in any order, repeated, sharing slots, and those the slots start with: each time the
   * checksum of exactly its own eight bytes.
   */
  @Test
  void everyLengthGetsTheChecksumOfItsOwnBytes() {
    Property.tries(500)
        .check(
            in -> {
              LengthChecksums checksums = new LengthChecksums();
              for (long length : in.draw("lengths", lengths())) {
                byte[] bytes =
                    ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(length).array();
                assertThat(checksums.of(length)).isEqualTo(MaskedCrc32c.of(bytes, 0, 8));
              }
            });
  }

  private static Gen<List<Long>> lengths() {
    return Generators.oneOf(
            longs(0, 200),
            longs(0, 4).map(k -> 37 + 64 * k),
            longs(),
            of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 64L, 127L))
        .list(0, 200);
  }
}
