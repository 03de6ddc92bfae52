package io.flightdeck.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.tsdb.encoding.Decbuf;
import io.flightdeck.tsdb.encoding.Encbuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every WAL record type decodes to exactly what was encoded. */
class WalRecordPropertiesTest {
  @Test
  void recordsRoundTrip() {
    int max = Generators.DEFAULT_MAX_SIZE;
    Property.tries(300)
        .check(
            in ->
                roundTrips(
                    in.draw(
                        "series",
                        Generators.mapOf(
                                Generators.validStrings(), Generators.validStrings(), 0, max)
                            .list(0, max)),
                    in.draw("times", Generators.longs().list(0, max)),
                    in.draw("values", Generators.anyDoubles().list(0, max)),
                    in.draw("metric", Generators.strings()),
                    in.draw("type", Generators.enumValues(MetricType.class)),
                    in.draw("help", Generators.strings())));
  }

  private static void roundTrips(
      List<Map<String, String>> series,
      List<Long> times,
      List<Double> values,
      String metric,
      MetricType type,
      String help) {
    List<String> expected = new ArrayList<>();
    List<String> decoded = new ArrayList<>();
    WalVisitor collect =
        new WalVisitor() {
          @Override
          public void series(long ref, Labels labels) {
            decoded.add("s" + ref + labels);
          }

          @Override
          public void sample(long ref, long timestamp, double value) {
            decoded.add(
                "v"
                    + ref
                    + "@"
                    + timestamp
                    + "="
                    + Long.toHexString(Double.doubleToRawLongBits(value)));
          }

          @Override
          public void metadata(String metricName, MetricMetadata metadata) {
            decoded.add("m" + metricName + metadata);
          }

          @Override
          public void tombstone(long ref, long mint, long maxt) {
            decoded.add("t" + ref + ":" + mint + ":" + maxt);
          }
        };
    Encbuf buf = new Encbuf(8);
    WalRecordCodec.begin(buf);
    for (int i = 0; i < series.size(); i++) {
      Labels labels = Labels.fromMap(series.get(i));
      WalRecordCodec.addSeries(buf, i + 1, labels);
      expected.add("s" + (i + 1) + labels);
    }
    WalRecordCodec.finish(buf, series.size());
    WalRecordCodec.decode(
        WalRecordCodec.SERIES, Decbuf.wrap(buf.array(), 0, buf.length()), collect);

    WalRecordCodec.begin(buf);
    int n = Math.min(times.size(), values.size());
    for (int i = 0; i < n; i++) {
      WalRecordCodec.addSample(buf, i, times.get(i), values.get(i));
      expected.add(
          "v"
              + i
              + "@"
              + times.get(i)
              + "="
              + Long.toHexString(Double.doubleToRawLongBits(values.get(i))));
    }
    WalRecordCodec.finish(buf, n);
    WalRecordCodec.decode(
        WalRecordCodec.SAMPLES, Decbuf.wrap(buf.array(), 0, buf.length()), collect);

    WalRecordCodec.begin(buf);
    MetricMetadata metadata = new MetricMetadata(type, help, "bytes");
    WalRecordCodec.addMetadata(buf, metric, metadata);
    expected.add(
        "m"
            + new String(
                metric.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.nio.charset.StandardCharsets.UTF_8)
            + new MetricMetadata(
                type,
                new String(
                    help.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.nio.charset.StandardCharsets.UTF_8),
                "bytes"));
    WalRecordCodec.finish(buf, 1);
    WalRecordCodec.decode(
        WalRecordCodec.METADATA, Decbuf.wrap(buf.array(), 0, buf.length()), collect);

    WalRecordCodec.begin(buf);
    WalRecordCodec.addTombstone(buf, 7, Long.MIN_VALUE, Long.MAX_VALUE);
    expected.add("t7:" + Long.MIN_VALUE + ":" + Long.MAX_VALUE);
    WalRecordCodec.finish(buf, 1);
    WalRecordCodec.decode(
        WalRecordCodec.TOMBSTONES, Decbuf.wrap(buf.array(), 0, buf.length()), collect);

    assertThat(decoded).isEqualTo(expected);
  }
}
