package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The renderer must write what {@link MetricsText} writes, whatever it kept from before. */
class MetricsTextRendererTest {
  private final MetricsTextRenderer renderer = new MetricsTextRenderer();

  private String render(List<MetricFamily> families) {
    return new String(renderer.render(families), StandardCharsets.UTF_8);
  }

  @Test
  void fixtureHostScrapeRendersAsMetricsTextEveryTime() throws Exception {
    HostCollector host =
        HostCollector.linux(HostCollectorGoldenTest.fixtureProc(), new ManualClock(0));
    for (int i = 0; i < 3; i++) {
      List<MetricFamily> families = host.collect().families();
      assertThat(render(families)).isEqualTo(MetricsText.toText(families));
    }
  }

  @Test
  void valuesOfKeptSeriesAreWrittenAnew() {
    render(List.of(gauge("g", 1, 2)));

    assertThat(render(List.of(gauge("g", 3, 4))))
        .isEqualTo(MetricsText.toText(List.of(gauge("g", 3, 4))));
  }

  @Test
  void everyValueIsFormattedAsMetricsTextFormatsIt() {
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

    assertThat(render(List.of(family))).isEqualTo(MetricsText.toText(List.of(family)));
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

    assertThat(render(changed)).isEqualTo(MetricsText.toText(changed));
  }

  @Test
  void changedHelpOrTypeIsRenderedAnew() {
    render(List.of(gauge("g", 1)));
    List<MetricFamily> counter = List.of(MetricFamily.counter("g", "Help of g.").add(1, "i", "0"));

    assertThat(render(counter)).isEqualTo(MetricsText.toText(counter));
  }

  @Test
  void escapedAndQuotedNamesAreWrittenAsMetricsTextWritesThem() {
    List<MetricFamily> families =
        List.of(
            MetricFamily.gauge("dotted.name", "Help with \\ and\nnewline.")
                .add(1, "mountpoint", "/a \"b\"\\c\nd", "label.x", "é"),
            MetricFamily.gauge("plain", "").add(2));

    assertThat(render(families)).isEqualTo(MetricsText.toText(families));
    assertThat(render(families)).isEqualTo(MetricsText.toText(families));
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
