package io.flightdeck.tsdb.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Round trips of the primitive encodings, and safe failure on damaged bytes. */
class EncodingPropertiesTest {
  @Property
  void numbersAndStringsRoundTrip(
      @ForAll long unsigned,
      @ForAll long signed,
      @ForAll int fixed,
      @ForAll double d,
      @ForAll String s) {
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

  @Property
  void damagedBytesFailOnlyWithCorruptDataException(@ForAll byte[] garbage) {
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

  @Property
  void truncatedVarintIsReported(@ForAll long value) {
    Encbuf buf = new Encbuf(16).putUvarint(value);
    if (buf.length() > 1) {
      Decbuf in = Decbuf.wrap(buf.array(), 0, buf.length() - 1);
      assertThatThrownBy(in::getUvarint).isInstanceOf(CorruptDataException.class);
    }
  }
}
