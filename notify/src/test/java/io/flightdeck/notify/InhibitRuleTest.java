package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

class InhibitRuleTest {
  private static final InhibitRule OFF_BUS_MUTES_NODE =
      new InhibitRule(
          AlertMatchers.parse("alertname=\"GPUFellOffBus\""),
          AlertMatchers.parse("instance=~\".+\""),
          List.of("instance"));

  private static NotifyAlert alert(String name, String instance) {
    return new NotifyAlert(
        Labels.of("alertname", name, "instance", instance), Labels.EMPTY, 1, 0, "");
  }

  @Test
  void anAlertMatchingBothSidesDoesNotInhibitItself() {
    NotifyAlert source = alert("GPUFellOffBus", "node1");
    assertThat(OFF_BUS_MUTES_NODE.inhibits(source.labels(), List.of(source))).isFalse();
  }

  @Test
  void equalLabelsMustAgree() {
    List<NotifyAlert> firing = List.of(alert("GPUFellOffBus", "node1"));
    assertThat(OFF_BUS_MUTES_NODE.inhibits(alert("GPUSMLowUtilization", "node1").labels(), firing))
        .isTrue();
    assertThat(OFF_BUS_MUTES_NODE.inhibits(alert("GPUSMLowUtilization", "node2").labels(), firing))
        .isFalse();
  }
}
