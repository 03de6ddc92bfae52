package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.exposition.TextFormatWriter;
import io.flightdeck.testkit.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The renderer must write what {@link TextFormatWriter} writes sample by sample, in node_exporter's
 * order, whatever it kept from an earlier rendering.
 */
class MetricsTextRendererTest {
  private final MetricsTextRenderer renderer = new MetricsTextRenderer();

  private String render(List<MetricFamily> families) {
    return new String(renderer.render(families), StandardCharsets.UTF_8);
  }

  /** The reference: every family and sample through TextFormatWriter, nothing kept. */
  private static String expected(List<MetricFamily> families) {
    StringBuilder out = new StringBuilder();
    TextFormatWriter writer = new TextFormatWriter(out);
    List<MetricFamily> sorted = new ArrayList<>(families);
    sorted.sort(Comparator.comparing(MetricFamily::name));
    try {
      for (MetricFamily family : sorted) {
        writer.family(family.name(), family.metadata());
        List<MetricFamily.Sample> samples = new ArrayList<>(family.samples());
        samples.sort(Comparator.comparing(MetricFamily.Sample::labels));
        for (MetricFamily.Sample sample : samples) {
          writer.sample(family.name(), sample.labels(), sample.value(), OptionalLong.empty());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  @Test
  void fixtureHostScrapeRendersAsTheWriterWritesItEveryTime() throws Exception {
    HostCollector host =
        HostCollector.linux(HostCollectorGoldenTest.fixtureProc(), new ManualClock(0));
    for (int i = 0; i < 3; i++) {
      List<MetricFamily> families = host.collect().families();
      assertThat(render(families)).isEqualTo(expected(families));
    }
  }

  @Test
  void valuesOfKeptSeriesAreWrittenAnew() {
    render(List.of(gauge("g", 1, 2)));

    assertThat(render(List.of(gauge("g", 3, 4)))).isEqualTo(expected(List.of(gauge("g", 3, 4))));
  }

  @Test
  void everyValueIsFormattedAsTheWriterFormatsIt() {
    double[] values = {
      0,
      -0.0,
      1,
      -1,
      0.5,
      -2.25,
      1e15 - 1,
      1e15,
      -1e15,
      1e21,
      1.5e-7,
      Long.MAX_VALUE,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      Double.MIN_VALUE
    };
    MetricFamily family = MetricFamily.gauge("v", "Values.");
    for (int i = 0; i < values.length; i++) {
      family.add(values[i], "i", Integer.toString(i));
    }

    assertThat(render(List.of(family))).isEqualTo(expected(List.of(family)));
  }

  @Test
  void changedLabelSetsAreRenderedAnewAndSorted() {
    render(List.of(gauge("g", 1, 2), gauge("h", 5)));
    List<MetricFamily> changed =
        List.of(
            MetricFamily.gauge("g", "Help of g.")
                .add(7, "device", "z")
                .add(8, "device", "a")
                .add(9, "device", "m"),
            MetricFamily.counter("h", "Other help."));

    assertThat(render(changed)).isEqualTo(expected(changed));
  }

  @Test
  void familiesPassedInAnotherOrderOrSetAreSortedAnew() {
    List<List<MetricFamily>> renderings =
        List.of(
            List.of(gauge("b", 1), gauge("a", 2), gauge("c", 3)),
            List.of(gauge("b", 4), gauge("a", 5), gauge("c", 6)),
            List.of(gauge("c", 7), gauge("b", 8), gauge("a", 9)),
            List.of(gauge("c", 1), gauge("d", 2, 3)),
            List.of(gauge("c", 1), gauge("d", 2, 3), gauge("b", 4)),
            List.of(gauge("d", 5), gauge("d", 6), gauge("a", 7)));

    for (List<MetricFamily> families : renderings) {
      assertThat(render(families)).isEqualTo(expected(families));
    }
  }

  @Test
  void changedHelpOrTypeIsRenderedAnew() {
    render(List.of(gauge("g", 1)));
    List<MetricFamily> counter = List.of(MetricFamily.counter("g", "Help of g.").add(1, "i", "0"));

    assertThat(render(counter)).isEqualTo(expected(counter));
  }

  @Test
  void escapedAndQuotedNamesAreWrittenAsTheWriterWritesThem() {
    List<MetricFamily> families =
        List.of(
            MetricFamily.gauge("dotted.name", "Help with \\ and\nnewline.")
                .add(1, "mountpoint", "/a \"b\"\\c\nd", "label.x", "é"),
            MetricFamily.gauge("plain", "").add(2));

    assertThat(render(families)).isEqualTo(expected(families));
    assertThat(render(families)).isEqualTo(expected(families));
  }

  /** A family with one series per value, labelled {@code i} = its position. */
  private static MetricFamily gauge(String name, double... values) {
    MetricFamily family = MetricFamily.gauge(name, "Help of " + name + ".");
    for (int i = 0; i < values.length; i++) {
      family.add(values[i], "i", Integer.toString(i));
    }
    return family;
  }
}
