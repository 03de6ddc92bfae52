package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.PromQL;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnsupportedSeriesTest {

  @Test
  void selectorsThatMatchAHistogramSeriesAreFound() {
    UnsupportedSeries series = new UnsupportedSeries();
    series.add(Labels.of("__name__", "h", "job", "a"), UnsupportedSeries.HISTOGRAM);

    assertThat(series.readBy(PromQL.parse("sum(rate(h[5m]))")))
        .contains("reads h{job=\"a\"}, loaded as a native histogram");
    assertThat(series.readBy(PromQL.parse("{job=~\"a|b\"} + 1"))).isPresent();
    assertThat(series.readBy(PromQL.parse("h{job=\"b\"}"))).isEmpty();
    assertThat(series.readBy(PromQL.parse("other"))).isEmpty();
  }

  @Test
  void classicHistogramsGiveTheirNhcbSeries() {
    UnsupportedSeries series = new UnsupportedSeries();
    series.addConvertedClassicHistograms(
        List.of(
            Labels.of("__name__", "req_bucket", "le", "0.1", "job", "a"),
            Labels.of("__name__", "req_count", "job", "a"),
            Labels.of("__name__", "odd_bucket", "le", "x"),
            Labels.of("__name__", "plain")));

    assertThat(series.readBy(PromQL.parse("req{job=\"a\"}"))).isPresent();
    assertThat(series.readBy(PromQL.parse("req_bucket"))).isEmpty();
    assertThat(series.readBy(PromQL.parse("odd"))).isEmpty();
    assertThat(series.readBy(PromQL.parse("plain"))).isEmpty();

    series.clear();
    assertThat(series.readBy(PromQL.parse("req"))).isEmpty();
  }
}
