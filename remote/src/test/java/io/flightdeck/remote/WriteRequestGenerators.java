package io.flightdeck.remote;

import static io.flightdeck.remote.WriteRequestEncoder.SERIES_LABELS;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_SAMPLES;
import static io.flightdeck.remote.WriteRequestEncoder.label;
import static io.flightdeck.remote.WriteRequestEncoder.sample;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Generators of valid remote-write content, shared by the round-trip and fuzz properties. */
final class WriteRequestGenerators {
  private WriteRequestGenerators() {}

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

  static Gen<List<GeneratedSeries>> seriesLists() {
    return series().list(0, 8);
  }

  private static Gen<GeneratedSeries> series() {
    Gen<String> metricNames = labelText();
    Gen<Map<String, String>> otherLabels =
        Generators.mapOf(
            labelText().filter(name -> !name.equals(Labels.METRIC_NAME)), labelText(), 0, 6);
    Gen<Long> timestamps = timestamps();
    Gen<Long> valueBits = valueBits();
    Gen<GeneratedSample> sample =
        c -> new GeneratedSample(timestamps.generate(c), valueBits.generate(c));
    Gen<List<GeneratedSample>> samples = sample.list(0, 12);
    return c -> {
      List<List<String>> pairs = new ArrayList<>();
      pairs.add(List.of(Labels.METRIC_NAME, metricNames.generate(c)));
      otherLabels.generate(c).forEach((name, value) -> pairs.add(List.of(name, value)));
      List<String> labelPairs =
          Generators.shuffle(pairs).generate(c).stream().flatMap(List::stream).toList();
      List<GeneratedSample> written = samples.generate(c);
      List<Boolean> slots = new ArrayList<>();
      slots.addAll(Collections.nCopies(labelPairs.size() / 2, true));
      slots.addAll(Collections.nCopies(written.size(), false));
      return new GeneratedSeries(labelPairs, written, Generators.shuffle(slots).generate(c));
    };
  }

  /**
   * Non-empty text from all of Unicode except lone surrogates (which UTF-8 cannot carry), mixed
   * with plain identifiers so that names collide and sort against each other.
   */
  private static Gen<String> labelText() {
    Gen<String> unicode =
        Generators.integers(0, Character.MAX_CODE_POINT)
            .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
            .list(1, 10)
            .map(
                codePoints -> {
                  StringBuilder sb = new StringBuilder();
                  codePoints.forEach(sb::appendCodePoint);
                  return sb.toString();
                });
    Gen<String> identifier = Generators.strings(Generators.charsOf("abcde_"), 1, 4);
    return Generators.oneOf(unicode, identifier);
  }

  private static Gen<Long> timestamps() {
    return Generators.oneOf(
        Generators.longs(), Generators.longs(1_600_000_000_000L, 1_900_000_000_000L));
  }

  /** Raw IEEE-754 bits: the special values, any bit pattern (every NaN payload), plain numbers. */
  private static Gen<Long> valueBits() {
    Gen<Long> special =
        Generators.of(
            Double.doubleToRawLongBits(Double.NaN),
            StaleMarker.BITS,
            Double.doubleToRawLongBits(Double.POSITIVE_INFINITY),
            Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY),
            Double.doubleToRawLongBits(-0.0),
            0L,
            Double.doubleToRawLongBits(Double.MIN_VALUE),
            Double.doubleToRawLongBits(Double.MAX_VALUE));
    return Generators.oneOf(
        special, Generators.longs(), Generators.doubles().map(Double::doubleToRawLongBits));
  }
}
