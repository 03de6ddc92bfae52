package io.flightdeck.tsdb.encoding;

import static io.flightdeck.testkit.Generators.anyDoubles;
import static io.flightdeck.testkit.Generators.byteArrays;
import static io.flightdeck.testkit.Generators.ints;
import static io.flightdeck.testkit.Generators.longs;
import static io.flightdeck.testkit.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.testkit.Property;
import org.junit.jupiter.api.Test;

/** Round trips of the primitive encodings, and safe failure on damaged bytes. */
class EncodingPropertiesTest {
  @Test
  void numbersAndStringsRoundTrip() {
    Property.tries(1000)
        .check(
            in ->
                roundTrips(
                    in.draw("unsigned", longs()),
                    in.draw("signed", longs()),
                    in.draw("fixed", ints()),
                    in.draw("d", anyDoubles()),
                    in.draw("s", strings())));
  }

  private static void roundTrips(long unsigned, long signed, int fixed, double d, String s) {
    Encbuf buf = new Encbuf(4);
    buf.putUvarint(unsigned)
        .putVarint(signed)
        .putInt(fixed)
        .putDouble(d)
        .putString(s)
        .putLong(signed);
    Decbuf in = Decbuf.wrap(buf.array(), 0, buf.length());
    assertThat(in.getUvarint()).isEqualTo(unsigned);
    assertThat(in.getVarint()).isEqualTo(signed);
    assertThat(in.getInt()).isEqualTo(fixed);
    assertThat(Double.doubleToRawLongBits(in.getDouble())).isEqualTo(Double.doubleToRawLongBits(d));
    assertThat(in.getString())
        .isEqualTo(
            new String(
                s.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.nio.charset.StandardCharsets.UTF_8));
    assertThat(in.getLong()).isEqualTo(signed);
    assertThat(in.remaining()).isZero();
  }

  @Test
  void damagedBytesFailOnlyWithCorruptDataException() {
    Property.tries(1000).check(in -> failsOnlyAsCorrupt(in.draw("garbage", byteArrays(0, 255))));
  }

  private static void failsOnlyAsCorrupt(byte[] garbage) {
    Decbuf in = Decbuf.wrap(garbage, 0, garbage.length);
    try {
      while (true) {
        in.getString();
        in.getVarint();
      }
    } catch (CorruptDataException expected) {
      assertThat(expected).hasMessageContaining("offset");
    }
  }

  @Test
  void truncatedVarintIsReported() {
    Property.tries(1000)
        .check(
            in -> {
              Encbuf buf = new Encbuf(16).putUvarint(in.draw("value", longs()));
              if (buf.length() > 1) {
                Decbuf truncated = Decbuf.wrap(buf.array(), 0, buf.length() - 1);
                assertThatThrownBy(truncated::getUvarint).isInstanceOf(CorruptDataException.class);
              }
            });
  }
}
