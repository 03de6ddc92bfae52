package io.flightdeck.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.tensorboard.Corruption;
import io.flightdeck.tensorboard.EventFileReader;
import io.flightdeck.tensorboard.EventListener;
import io.flightdeck.tensorboard.HParamsPoint;
import io.flightdeck.tensorboard.HistogramPoint;
import io.flightdeck.tensorboard.ScalarPoint;
import io.flightdeck.tensorboard.SummaryPoint;
import io.flightdeck.tensorboard.TextPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the demo writes, read back by Flightdeck's own TensorBoard reader. */
class EventFileWriterTest {

  @Test
  void scalarsHistogramsTextAndHparamsReadBack(@TempDir Path dir) throws Exception {
    Map<String, Object> hparams = new LinkedHashMap<>();
    hparams.put("max_steps", 2250);
    hparams.put("lr_scheduler_type", "cosine_with_restarts");
    try (EventFileWriter writer = new EventFileWriter(dir, 1_765_000_000)) {
      writer.hparams(1_765_000_000, hparams);
      writer.scalar("train/loss", 10, 1_765_000_001.5, 2.25);
      writer.histogram(
          "lora_A/weight",
          10,
          1_765_000_001.5,
          new double[] {-0.2, 0.1, 0.15},
          new double[] {0, 1});
      writer.text("samples/generation", 10, 1_765_000_001.5, "hello → bonjour");
    }
    Path file;
    try (Stream<Path> files = Files.list(dir)) {
      file = files.findFirst().orElseThrow();
    }
    List<SummaryPoint> points = new ArrayList<>();
    List<Corruption> damage = new ArrayList<>();
    new EventFileReader(file)
        .poll(
            new EventListener() {
              @Override
              public void point(SummaryPoint point) {
                points.add(point);
              }

              @Override
              public void corruption(Corruption corruption) {
                damage.add(corruption);
              }
            });
    assertThat(damage).isEmpty();
    HParamsPoint h = find(points, HParamsPoint.class);
    assertThat(h.kind()).isEqualTo(HParamsPoint.Kind.SESSION_START);
    assertThat(h.hparams()).containsEntry("lr_scheduler_type", "cosine_with_restarts");
    assertThat(((Number) h.hparams().get("max_steps")).doubleValue()).isEqualTo(2250.0);
    ScalarPoint loss = find(points, ScalarPoint.class);
    assertThat(loss.tag()).isEqualTo("train/loss");
    assertThat(loss.step()).isEqualTo(10);
    assertThat(loss.value()).isEqualTo(2.25);
    assertThat(loss.wallTimeSeconds()).isEqualTo(1_765_000_001.5);
    HistogramPoint histogram = find(points, HistogramPoint.class);
    assertThat(histogram.num()).isEqualTo(3);
    assertThat(histogram.bucketCounts()).containsExactly(1.0, 2.0);
    TextPoint text = find(points, TextPoint.class);
    assertThat(text.tag()).isEqualTo("samples/generation/text_summary");
    assertThat(text.values()).containsExactly("hello → bonjour");
  }

  private static <T extends SummaryPoint> T find(List<SummaryPoint> points, Class<T> type) {
    return points.stream()
        .filter(type::isInstance)
        .map(type::cast)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " among " + points));
  }
}
