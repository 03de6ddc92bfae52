package io.flightdeck.tsdb.head;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import org.junit.jupiter.api.Test;

class MemPostingsTest {
  @Test
  void seriesSharingAPairGetTheSameStringInstancesAndEqualLabels() {
    MemPostings postings = new MemPostings();
    Labels first =
        postings.add(1, Labels.of("__name__", new String("gpu_util"), "gpu", new String("0")));
    Labels given = Labels.of("__name__", new String("gpu_util"), "gpu", new String("1"));
    Labels second = postings.add(2, given);

    assertThat(second).isEqualTo(given);
    assertThat(second.value(0)).isSameAs(first.value(0)).isNotSameAs(given.value(0));
    assertThat(second.name(1)).isSameAs(first.name(1));
    assertThat(second.value(1)).isEqualTo("1").isNotSameAs(first.value(1));
    assertThat(postings.select(Matcher.equal("gpu", "1")).toArray()).containsExactly(2);
    assertThat(postings.select(Matcher.equal("__name__", "gpu_util")).toArray())
        .containsExactly(1, 2);
  }
}
