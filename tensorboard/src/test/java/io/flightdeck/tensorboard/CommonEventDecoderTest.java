package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shortcut for common events gives exactly what the general path gives, or leaves the event to
 * it: on every event of the fixtures, on damaged copies of them, and on synthetic ones.
 */
class CommonEventDecoderTest {
  private static final List<byte[]> EVENTS = fixtureEvents();

  private static byte[] scalarEvent() {
    return EventBytes.summaryEvent(
        1.7e9 + 0.25, 42, EventBytes.value("train/loss", null, null, v -> v.fixed32Float(2, 0.5f)));
  }

  /** A legacy {@code histo} with 30 buckets, packed: a length prefix of two bytes. */
  private static byte[] histoEvent() {
    double[] limits = new double[30];
    double[] counts = new double[30];
    for (int i = 0; i < 30; i++) {
      limits[i] = -1 + i / 10.0;
      counts[i] = i % 7;
    }
    return EventBytes.summaryEvent(
        1.7e9,
        7,
        EventBytes.value(
            "weights/layer0",
            null,
            null,
            v ->
                v.message(
                    5,
                    h ->
                        h.fixed64Double(1, -1)
                            .fixed64Double(2, 2)
                            .fixed64Double(3, 87)
                            .fixed64Double(4, 12.5)
                            .fixed64Double(5, 40)
                            .packedDoubles(6, limits)
                            .packedDoubles(7, counts))));
  }

  @Test
  void scalarsAndHistogramsWithoutMetadataTakeTheShortcut() throws IOException {
    CommonEventDecoder common = new CommonEventDecoder();
    for (byte[] event : List.of(scalarEvent(), histoEvent())) {
      EventDecoder.DecodedEvent fast = common.decode(event, 0, event.length, Set.of());
      assertThat(fast).isNotNull();
      assertThat(fast).isEqualTo(new EventDecoder().decodeAny(event, 0, event.length));
    }
    HistogramPoint h =
        (HistogramPoint)
            new EventDecoder().decode(histoEvent(), 0, histoEvent().length).points().getFirst();
    assertThat(h.bucketLimits()).hasSize(30);
    assertThat(h.bucketCount(29)).isEqualTo(1);
    assertThat(h.totalCount()).isEqualTo(h.bucketCounts().stream().mapToDouble(d -> d).sum());
  }

  @Test
  void aHistogramEventReachesAListenerAsFieldsWithItsCountsCopiedByTheDefault() {
    byte[] event = histoEvent();
    List<Object> fields = new ArrayList<>();
    List<Double> gotLimits = new ArrayList<>();
    List<Double> gotCounts = new ArrayList<>();
    EventListener columns =
        new EventListener() {
          @Override
          public void point(SummaryPoint point) {
            throw new AssertionError("a histogram of the common shape comes as fields");
          }

          @Override
          public void histogram(HistogramFields h) {
            fields.addAll(
                List.of(
                    h.tag(),
                    h.step(),
                    h.wallTimeSeconds(),
                    h.min(),
                    h.max(),
                    h.num(),
                    h.sum(),
                    h.sumSquares()));
            gotLimits.addAll(h.bucketLimits());
            for (int i = 0; i < h.countCount(); i++) {
              gotCounts.add(h.bucketCount(i));
            }
          }
        };
    assertThat(new EventDecoder().simpleHistogram(event, 0, event.length, columns)).isTrue();
    assertThat(fields).containsExactly("weights/layer0", 7L, 1.7e9, -1.0, 2.0, 87.0, 12.5, 40.0);
    assertThat(gotLimits).hasSize(30).startsWith(-1.0);
    assertThat(gotCounts).hasSize(30).startsWith(0.0, 1.0, 2.0);
    // The default makes a point whose counts stay as they were when the decoder reuses its arrays.
    CollectingListener points = new CollectingListener();
    EventDecoder decoder = new EventDecoder();
    assertThat(decoder.simpleHistogram(event, 0, event.length, points)).isTrue();
    HistogramPoint first = (HistogramPoint) points.points.getFirst();
    byte[] other = histoEvent();
    other[other.length - 1] ^= 0x40; // the last count changes
    assertThat(decoder.simpleHistogram(other, 0, other.length, points)).isTrue();
    assertThat(first.bucketCount(29)).isEqualTo(1);
    assertThat(((HistogramPoint) points.points.getLast()).bucketCount(29)).isNotEqualTo(1);
    assertThat(new EventDecoder().simpleHistogram(scalarEvent(), 0, scalarEvent().length, points))
        .isFalse();
  }

  @Test
  void aTagMarkedAsHparamsIsLeftToTheGeneralPath() throws IOException {
    byte[] event = scalarEvent();
    assertThat(new CommonEventDecoder().decode(event, 0, event.length, Set.of("train/loss")))
        .isNull();
    // Marked by an earlier event's metadata in the same run, as a decoder learns it.
    byte[] marking =
        EventBytes.summaryEvent(
            1.7e9,
            1,
            EventBytes.value("train/loss", "hparams", new byte[0], v -> v.fixed32Float(2, 1)));
    EventDecoder run = new EventDecoder();
    EventDecoder general = new EventDecoder();
    run.decode(marking, 0, marking.length);
    general.decodeAny(marking, 0, marking.length);
    assertThat(run.simpleScalar(event, 0, event.length, new CollectingListener())).isFalse();
    assertThat(run.decode(event, 0, event.length))
        .isEqualTo(general.decodeAny(event, 0, event.length));
  }

  @Test
  void everyFixtureEventDecodesAsByTheGeneralPath() {
    int shortcuts = check(EVENTS);
    assertThat(shortcuts).as("the fixtures hold common events").isGreaterThan(1000);
  }

  @Test
  void damagedEventsDecodeAsByTheGeneralPath() {
    Property.tries(500).check(in -> damagedDecodeAsGeneral(in.draw("flips", damage())));
  }

  private static void damagedDecodeAsGeneral(List<int[]> flips) {
    List<byte[]> events = new ArrayList<>();
    events.add(scalarEvent());
    events.add(histoEvent());
    for (int[] f : flips) {
      byte[] event = EVENTS.get(f[0] % EVENTS.size()).clone();
      if (event.length > 0) {
        event[f[1] % event.length] ^= (byte) (1 << (f[2] % 8));
      }
      events.add(event);
    }
    for (int[] f : flips) {
      byte[] event = (f[0] % 2 == 0 ? scalarEvent() : histoEvent());
      event[f[1] % event.length] ^= (byte) (1 << (f[2] % 8));
      events.add(Arrays.copyOf(event, event.length - f[2] % 3));
    }
    check(events);
  }

  @Test
  void randomBytesDecodeAsByTheGeneralPath() {
    Property.tries(300)
        .check(in -> check(in.draw("events", Generators.byteArrays(0, 80).list(0, 10))));
  }

  /**
   * Scalar events of any step, wall time, value and tag: those with short tags take the one-pass
   * scalar read, the rest the field loop, and all decode as by the general path.
   */
  @Test
  void scalarEventsDecodeAsByTheGeneralPath() {
    Property.tries(300)
        .check(
            in ->
                scalarsDecodeAsGeneral(
                    in.draw("tags", Generators.strings().list(0, 20)),
                    in.draw("step", Generators.longs()),
                    in.draw("wallTime", Generators.anyDoubles()),
                    in.draw("value", Generators.floats())));
  }

  private static void scalarsDecodeAsGeneral(
      List<String> tags, long step, double wallTime, float value) {
    List<byte[]> events = new ArrayList<>();
    for (String tag : tags) {
      events.add(
          EventBytes.summaryEvent(
              wallTime, step, EventBytes.value(tag, null, null, v -> v.fixed32Float(2, value))));
    }
    check(events);
  }

  /** Flips, each three numbers: which event, which byte of it, which bit. */
  private static Gen<List<int[]>> damage() {
    Gen<Integer> number = Generators.integers(0, Integer.MAX_VALUE);
    Gen<int[]> flip = c -> new int[] {number.generate(c), number.generate(c), number.generate(c)};
    return flip.list(1, 20);
  }

  /**
   * Decodes the events in order with both paths, each with its own learned plugins, and checks they
   * agree event by event, failures included; so do the points of a reader's way, the scalar and
   * histogram shortcuts to a listener first. Returns how many took the shortcut.
   */
  private static int check(List<byte[]> events) {
    EventDecoder withShortcut = new EventDecoder();
    EventDecoder general = new EventDecoder();
    EventDecoder asReader = new EventDecoder();
    CommonEventDecoder probe = new CommonEventDecoder();
    Set<String> noPlugins = Set.of();
    int shortcuts = 0;
    for (byte[] event : events) {
      Object expected;
      try {
        expected = general.decodeAny(event, 0, event.length);
      } catch (IOException e) {
        expected = e.getClass().getName() + ": " + e.getMessage();
      }
      Object actual;
      try {
        actual = withShortcut.decode(event, 0, event.length);
      } catch (IOException e) {
        actual = e.getClass().getName() + ": " + e.getMessage();
      }
      assertThat(actual).isEqualTo(expected);
      assertThat(asReader(asReader, event))
          .isEqualTo(
              expected instanceof EventDecoder.DecodedEvent decoded ? decoded.points() : expected);
      if (probe.decode(event, 0, event.length, noPlugins) != null) {
        shortcuts++;
      }
    }
    return shortcuts;
  }

  /** The event's points as {@code EventFileReader} gets them, or the failure. */
  private static Object asReader(EventDecoder decoder, byte[] event) {
    CollectingListener listener = new CollectingListener();
    if (decoder.simpleScalar(event, 0, event.length, listener)
        || decoder.simpleHistogram(event, 0, event.length, listener)) {
      return listener.points;
    }
    try {
      return decoder.decode(event, 0, event.length).points();
    } catch (IOException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  /** The record payloads of a file, up to where its framing stops making sense. */
  private static List<byte[]> payloads(byte[] file) {
    List<byte[]> payloads = new ArrayList<>();
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    int at = 0;
    while (file.length - at >= 16) {
      long length = b.getLong(at);
      if (length < 0 || length > file.length - at - 16) {
        break;
      }
      payloads.add(Arrays.copyOfRange(file, at + 12, at + 12 + (int) length));
      at += 16 + (int) length;
    }
    return payloads;
  }

  private static List<byte[]> fixtureEvents() {
    List<byte[]> events = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SharedFixtures.fixture("tfevents"))) {
      List<Path> eventFiles =
          files
              .filter(Files::isRegularFile)
              .filter(p -> p.getFileName().toString().startsWith("events.out.tfevents"))
              .sorted()
              .toList();
      for (Path file : eventFiles) {
        events.addAll(payloads(Files.readAllBytes(file)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return events;
  }
}
