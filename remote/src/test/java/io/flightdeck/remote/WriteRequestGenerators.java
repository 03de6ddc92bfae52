package io.flightdeck.remote;

import static io.flightdeck.remote.WriteRequestEncoder.SERIES_LABELS;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_SAMPLES;
import static io.flightdeck.remote.WriteRequestEncoder.label;
import static io.flightdeck.remote.WriteRequestEncoder.sample;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** jqwik generators of valid remote-write content, shared by the round-trip and fuzz properties. */
final class WriteRequestArbitraries {
  private WriteRequestArbitraries() {}

  /**
   * One valid series as a sender could write it.
   *
   * @param labelPairs name, value, name, value... in the order written, not necessarily sorted
   * @param samples in the order written
   * @param labelSlots field order: true writes the next label, false the next sample, so labels and
   *     samples come interleaved in any way while each keeps its own order
   */
  record GeneratedSeries(
      List<String> labelPairs, List<GeneratedSample> samples, List<Boolean> labelSlots) {
    Message encode() {
      Message series = new Message();
      int nextLabel = 0;
      Iterator<GeneratedSample> nextSample = samples.iterator();
      for (boolean isLabel : labelSlots) {
        if (isLabel) {
          series.message(
              SERIES_LABELS, label(labelPairs.get(nextLabel), labelPairs.get(nextLabel + 1)));
          nextLabel += 2;
        } else {
          GeneratedSample s = nextSample.next();
          series.message(
              SERIES_SAMPLES, sample(Double.longBitsToDouble(s.valueBits()), s.timestampMillis()));
        }
      }
      return series;
    }

    /** Whether some label is written after some sample, the order a one-pass decoder gets wrong. */
    boolean labelAfterSample() {
      int firstSample = labelSlots.indexOf(false);
      return firstSample >= 0 && labelSlots.lastIndexOf(true) > firstSample;
    }

    /** What storage should receive for this series. */
    List<StoredSample> expected() {
      Labels labels = Labels.of(labelPairs.toArray(new String[0]));
      return samples.stream()
          .map(s -> new StoredSample(labels, s.timestampMillis(), s.valueBits()))
          .toList();
    }
  }

  /** A sample with its value as raw bits, so that NaN payloads survive generation unchanged. */
  record GeneratedSample(long timestampMillis, long valueBits) {}

  static Arbitrary<List<GeneratedSeries>> seriesLists() {
    return series().list().ofMaxSize(8);
  }

  private static Arbitrary<GeneratedSeries> series() {
    Arbitrary<Map<String, String>> otherLabels =
        Arbitraries.maps(labelText().filter(name -> !name.equals(Labels.METRIC_NAME)), labelText())
            .ofMaxSize(6);
    Arbitrary<List<String>> labelPairs =
        Combinators.combine(labelText(), otherLabels)
            .as(
                (metricName, others) -> {
                  List<List<String>> pairs = new ArrayList<>();
                  pairs.add(List.of(Labels.METRIC_NAME, metricName));
                  others.forEach((name, value) -> pairs.add(List.of(name, value)));
                  return pairs;
                })
            .flatMap(Arbitraries::shuffle)
            .map(pairs -> pairs.stream().flatMap(List::stream).toList());
    Arbitrary<List<GeneratedSample>> samples =
        Combinators.combine(timestamps(), valueBits())
            .as(GeneratedSample::new)
            .list()
            .ofMaxSize(12);
    return Combinators.combine(labelPairs, samples)
        .as(Tuple::of)
        .flatMap(
            t -> {
              List<Boolean> slots = new ArrayList<>();
              slots.addAll(Collections.nCopies(t.get1().size() / 2, true));
              slots.addAll(Collections.nCopies(t.get2().size(), false));
              return Arbitraries.shuffle(slots)
                  .map(order -> new GeneratedSeries(t.get1(), t.get2(), order));
            });
  }

  /**
   * Non-empty text from all of Unicode except lone surrogates (which UTF-8 cannot carry), mixed
   * with plain identifiers so that names collide and sort against each other.
   */
  private static Arbitrary<String> labelText() {
    Arbitrary<String> unicode =
        Arbitraries.integers()
            .between(0, Character.MAX_CODE_POINT)
            .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
            .list()
            .ofMinSize(1)
            .ofMaxSize(10)
            .map(
                codePoints -> {
                  StringBuilder sb = new StringBuilder();
                  codePoints.forEach(sb::appendCodePoint);
                  return sb.toString();
                });
    Arbitrary<String> identifier =
        Arbitraries.strings().withCharRange('a', 'e').withChars('_').ofMinLength(1).ofMaxLength(4);
    return Arbitraries.oneOf(unicode, identifier);
  }

  private static Arbitrary<Long> timestamps() {
    return Arbitraries.oneOf(
        Arbitraries.longs(), Arbitraries.longs().between(1_600_000_000_000L, 1_900_000_000_000L));
  }

  /** Raw IEEE-754 bits: the special values, any bit pattern (every NaN payload), plain numbers. */
  private static Arbitrary<Long> valueBits() {
    Arbitrary<Long> special =
        Arbitraries.of(
            Double.doubleToRawLongBits(Double.NaN),
            StaleMarker.BITS,
            Double.doubleToRawLongBits(Double.POSITIVE_INFINITY),
            Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY),
            Double.doubleToRawLongBits(-0.0),
            0L,
            Double.doubleToRawLongBits(Double.MIN_VALUE),
            Double.doubleToRawLongBits(Double.MAX_VALUE));
    return Arbitraries.oneOf(
        special, Arbitraries.longs(), Arbitraries.doubles().map(Double::doubleToRawLongBits));
  }
}
