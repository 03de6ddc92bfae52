package io.flightdeck.scrape;

import static io.flightdeck.testkit.Generators.booleans;
import static io.flightdeck.testkit.Generators.integers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.testkit.Property;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BoundedBodyTest {
  private static byte[] bytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** Hands out at most a few bytes per read, as a socket may. */
  private static InputStream dribbling(byte[] bytes) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 7));
      }
    };
  }

  @Test
  void aBodyWithinTheLimitIsReadWholeAndALargerOneIsRefused() {
    Property.tries(1000)
        .check(
            in ->
                readWholeOrRefused(
                    in.draw("size", integers(0, 40_000)),
                    in.draw("limit", integers(0, 40_000)),
                    in.draw("lengthKnown", booleans()),
                    in.draw("dribble", booleans())));
  }

  private static void readWholeOrRefused(
      int size, int limit, boolean lengthKnown, boolean dribble) {
    byte[] body = bytes(size, size);
    InputStream in = dribble ? dribbling(body) : new ByteArrayInputStream(body);
    long expected = lengthKnown ? size : -1;
    if (limit == 0 || size <= limit) {
      assertThat(readOrFail(in, limit, expected)).isEqualTo(body);
    } else {
      assertThatThrownBy(() -> BoundedBody.read(in, limit, expected))
          .isInstanceOf(BoundedBody.BodyTooLargeException.class)
          .hasMessage("body size limit exceeded");
    }
  }

  private static byte[] readOrFail(InputStream in, long limit, long expected) {
    try {
      return BoundedBody.read(in, limit, expected);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aBodyOfExactlyTheLimitOrItsAnnouncedLengthIsReadWhole() throws Exception {
    byte[] body = bytes(1000, 1);
    assertThat(BoundedBody.read(new ByteArrayInputStream(body), 1000, 1000)).isEqualTo(body);
    assertThat(BoundedBody.read(new ByteArrayInputStream(body), 1000, -1)).isEqualTo(body);
    assertThat(BoundedBody.read(new ByteArrayInputStream(new byte[0]), 0, 0)).isEmpty();
  }

  @Test
  void anAnnouncedLengthOverTheLimitFailsBeforeReading() {
    ByteArrayInputStream in = new ByteArrayInputStream(bytes(200, 2));
    assertThatThrownBy(() -> BoundedBody.read(in, 100, 200))
        .isInstanceOf(BoundedBody.BodyTooLargeException.class);
    assertThat(in.available()).isEqualTo(200);
  }
}
