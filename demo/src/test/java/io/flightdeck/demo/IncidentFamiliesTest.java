package io.flightdeck.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricFamily;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The ground-truth series: 1 exactly while each incident lasts, with its run, host and GPU. */
class IncidentFamiliesTest {
  private final List<Incident> incidents = DemoScript.incidents(DemoScript.DEFAULT_DURATION);

  @Test
  void eachIncidentIsActiveExactlyInItsWindow() {
    for (Incident incident : incidents) {
      long start = incident.start().toSeconds();
      long end = incident.end().toSeconds();
      assertThat(active(start - 1)).as(incident.id()).doesNotContainEntry(incident.id(), 1.0);
      assertThat(active(start)).containsEntry(incident.id(), 1.0);
      assertThat(active(end - 1)).containsEntry(incident.id(), 1.0);
      if (end < DemoScript.DEFAULT_DURATION.toSeconds()) {
        assertThat(active(end)).containsEntry(incident.id(), 0.0);
      }
    }
  }

  @Test
  void gpuIncidentsNameTheirHostAndGpuAndEveryOneItsRun() {
    MetricFamily family = IncidentFamilies.render(incidents, 0).get(0);
    assertThat(family.name()).isEqualTo("flightdeck_demo_incident_active");
    assertThat(family.samples()).hasSize(7);
    for (MetricFamily.Sample sample : family.samples()) {
      assertThat(sample.labels().get("run")).isIn(DemoScript.MAIN_RUN, DemoScript.SIBLING_RUN);
      assertThat(sample.labels().get("title")).isNotBlank();
      if (sample.labels().get("incident").equals("xid-79")) {
        assertThat(sample.labels().get("host")).isEqualTo("node-1");
        assertThat(sample.labels().get("gpu")).isEqualTo("2");
      }
      if (sample.labels().get("incident").equals("nan-loss")) {
        assertThat(sample.labels().has("host")).isFalse();
      }
    }
  }

  private Map<String, Double> active(double simSeconds) {
    Map<String, Double> values = new TreeMap<>();
    for (MetricFamily.Sample s : IncidentFamilies.render(incidents, simSeconds).get(0).samples()) {
      values.put(s.labels().get("incident"), s.value());
    }
    return values;
  }
}
