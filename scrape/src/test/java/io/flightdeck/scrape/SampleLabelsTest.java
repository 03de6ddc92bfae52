package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.config.ScrapeLimits;
import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

class SampleLabelsTest {
  private static final Labels TARGET = Labels.of("job", "train", "instance", "trainer-0:8080");

  @Test
  void withoutHonorLabelsTargetLabelsWinAndClashesAreExported() {
    Labels sample =
        Labels.of("__name__", "llm_train_loss", "job", "inner", "exported_job", "taken");
    assertThat(SampleLabels.join(sample, TARGET, false))
        .isEqualTo(
            Labels.of(
                "__name__", "llm_train_loss",
                "job", "train",
                "instance", "trainer-0:8080",
                "exported_job", "taken",
                "exported_exported_job", "inner"));
  }

  @Test
  void withHonorLabelsSampleLabelsWin() {
    Labels sample = Labels.of("__name__", "up", "job", "federated");
    assertThat(SampleLabels.join(sample, TARGET, true))
        .isEqualTo(Labels.of("__name__", "up", "job", "federated", "instance", "trainer-0:8080"));
  }

  @Test
  void labelLimitsFailWithPrometheusMessages() {
    Labels labels = Labels.of("__name__", "gpu_memory_used_mb", "device", "cuda:0", "job", "j");
    assertThatThrownBy(() -> SampleLabels.checkLimits(labels, new ScrapeLimits(0, 2, 0, 0, 0, 0)))
        .hasMessage(
            "label_limit exceeded (metric: gpu_memory_used_mb, number of labels: 3, limit: 2)");
    assertThatThrownBy(() -> SampleLabels.checkLimits(labels, new ScrapeLimits(0, 0, 5, 0, 0, 0)))
        .hasMessage(
            "label_name_length_limit exceeded (metric: gpu_memory_used_mb, label name: __name__,"
                + " length: 8, limit: 5)");
    assertThatThrownBy(() -> SampleLabels.checkLimits(labels, new ScrapeLimits(0, 0, 0, 5, 0, 0)))
        .hasMessage(
            "label_value_length_limit exceeded (metric: gpu_memory_used_mb, label name: __name__,"
                + " value: \"gpu_memory_used_mb\", length: 18, limit: 5)");
  }
}
