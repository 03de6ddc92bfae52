package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OffsetsTest {
  @Test
  void eachTargetFiresAtAStablePhaseWithinTheInterval() {
    Set<Long> phases = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      Labels target = Labels.of("instance", "trainer-" + i + ":8080", "job", "train");
      long now = 1_700_000_000_123L;
      long delay = Offsets.initialDelay(target, 15_000, now);
      assertThat(delay).isBetween(0L, 14_999L);
      // The phase is a property of the target, not of the moment asked.
      assertThat((now + delay) % 15_000)
          .isEqualTo((now + 7_777 + Offsets.initialDelay(target, 15_000, now + 7_777)) % 15_000);
      phases.add((now + delay) % 15_000);
    }
    assertThat(phases).hasSizeGreaterThan(40);
  }
}
