package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricFamily;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPM ratios through {@link GpuCollector} and the fake NVML library: GPU 0 is a Hopper with
 * GPM, GPU 1 says it has none, GPU 2's driver answers NOT_SUPPORTED to the question.
 */
class GpuCollectorGpmTest {
  private static final String GR = DcgmField.PROF_GR_ENGINE_ACTIVE.metricName();
  private static final String TENSOR = DcgmField.PROF_PIPE_TENSOR_ACTIVE.metricName();
  private static final String DRAM = DcgmField.PROF_DRAM_ACTIVE.metricName();
  private static final String LIVE_SAMPLES = "fake_gpm_live_samples";

  private static final String CONFIG =
      """
      count=3
      driver=590.48.01
      gpu0.events=8
      gpu1.events=8
      gpu2.events=8
      gpu0.temp=60
      gpu0.gpm=1
      gpu0.gpm.1=87.5
      gpu0.gpm.5=42
      gpu0.gpm.10=61
      gpu1.temp=40
      gpu1.gpm=0
      gpu1.gpm.1=10
      gpu2.temp=30
      gpu2.gpm.1=10
      """;

  @TempDir Path dir;

  @Test
  void ratiosFromTheSecondCollectionOnForGpusWithGpm() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, CONFIG);
    GpuCollector collector = start(fake);
    try {
      GpuCollector.Scrape first = collector.collect();
      GpuCollector.Scrape second = collector.collect();
      GpuCollector.Scrape third = collector.collect();

      // Nothing to compare the first sample with: no series at all, not a zero.
      assertThat(byGpu(first, GR)).isEmpty();
      assertThat(byGpu(second, GR)).containsExactly(Map.entry("0", 0.875));
      assertThat(byGpu(second, TENSOR)).containsExactly(Map.entry("0", 0.42));
      assertThat(byGpu(second, DRAM)).containsExactly(Map.entry("0", 0.61));
      assertThat(byGpu(third, GR)).containsExactly(Map.entry("0", 0.875));
      assertThat(third.failures()).isEmpty();
      // Asked once per GPU, supported or not.
      assertThat(fake.stubCount("fake_gpm_support_queries")).isEqualTo(3);
      assertThat(fake.stubCount(LIVE_SAMPLES)).isEqualTo(2);
    } finally {
      collector.close();
    }
  }

  @Test
  void metricWithItsOwnErrorIsLeftOut() throws Exception {
    FakeNvmlLibrary fake =
        FakeNvmlLibrary.build(
            dir,
            CONFIG
                .replace("gpu0.gpm.5=42", "gpu0.gpm.5=ERR:3")
                .replace("gpu0.gpm.10=61", "gpu0.gpm.10=ERR:999"));
    GpuCollector collector = start(fake);
    try {
      collector.collect();
      GpuCollector.Scrape scrape = collector.collect();

      assertThat(byGpu(scrape, GR)).containsExactly(Map.entry("0", 0.875));
      assertThat(byGpu(scrape, TENSOR)).isEmpty();
      assertThat(byGpu(scrape, DRAM)).isEmpty();
      assertThat(scrape.failures()).isEmpty();
    } finally {
      collector.close();
    }
  }

  @Test
  void failedSampleStartsTheComparisonOver() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, CONFIG);
    GpuCollector collector = start(fake);
    try {
      collector.collect();
      assertThat(byGpu(collector.collect(), GR)).containsKey("0");
      fake.configure(CONFIG.replace("gpu0.gpm=1", "gpu0.gpm=0"));
      GpuCollector.Scrape failed = collector.collect();
      fake.configure(CONFIG);
      GpuCollector.Scrape afterGap = collector.collect();
      GpuCollector.Scrape next = collector.collect();

      assertThat(byGpu(failed, GR)).isEmpty();
      assertThat(failed.failures()).isEmpty();
      // A rate spanning the failed sample would average over an unknown stretch.
      assertThat(byGpu(afterGap, GR)).isEmpty();
      assertThat(byGpu(next, GR)).containsExactly(Map.entry("0", 0.875));
    } finally {
      collector.close();
    }
  }

  @Test
  void otherErrorIsReportedAndSupportAskedAgain() throws Exception {
    FakeNvmlLibrary fake =
        FakeNvmlLibrary.build(dir, CONFIG.replace("gpu0.gpm=1", "gpu0.gpm=ERR:999"));
    GpuCollector collector = start(fake);
    try {
      GpuCollector.Scrape failed = collector.collect();
      fake.configure(CONFIG);
      collector.collect();
      GpuCollector.Scrape recovered = collector.collect();

      assertThat(failed.failures())
          .containsOnly(
              Map.entry("gpu0 gpm", "[call=nvmlGpmQueryDeviceSupport] [code=999] Unknown Error"));
      assertThat(byGpu(recovered, GR)).containsExactly(Map.entry("0", 0.875));
      assertThat(recovered.failures()).isEmpty();
      // Unlike an unsupported GPU, one whose answer was an error is asked again.
      assertThat(fake.stubCount("fake_gpm_support_queries")).isEqualTo(4);
    } finally {
      collector.close();
    }
  }

  @Test
  void collectionSoonAfterTheLastSampleKeepsIt() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, CONFIG);
    AtomicLong now = new AtomicLong();
    GpuCollector collector = start(fake, now::get);
    try {
      collector.collect();
      now.addAndGet(99_000_000L);
      GpuCollector.Scrape tooSoon = collector.collect();
      now.addAndGet(1_000_000L);
      GpuCollector.Scrape later = collector.collect();

      // NVML refreshes its counters about every 100 ms: a closer pair would be a rate of nothing.
      assertThat(byGpu(tooSoon, GR)).isEmpty();
      assertThat(tooSoon.failures()).isEmpty();
      // The first sample was kept, so the next collection 100 ms after it has its ratios.
      assertThat(byGpu(later, GR)).containsExactly(Map.entry("0", 0.875));
    } finally {
      collector.close();
    }
  }

  @Test
  void driverWithoutGpmSymbolsGivesNoRatiosAndNoFailure() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, CONFIG, "FAKE_NVML_NO_GPM");
    GpuCollector collector = start(fake);
    try {
      collector.collect();
      GpuCollector.Scrape scrape = collector.collect();

      assertThat(byGpu(scrape, GR)).isEmpty();
      assertThat(byGpu(scrape, DcgmField.GPU_TEMP.metricName())).hasSize(3);
      assertThat(scrape.failures()).isEmpty();
    } finally {
      collector.close();
    }
  }

  @Test
  void samplesAreFreedWhenTheGpuIsLostAndOnClose() throws Exception {
    String twoHoppers = CONFIG.replace("gpu1.gpm=0", "gpu1.gpm=1");
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, twoHoppers);
    GpuCollector collector = start(fake);
    collector.collect();
    assertThat(fake.stubCount(LIVE_SAMPLES)).isEqualTo(4);

    fake.configure(twoHoppers + "gpu1.lost=1\n");
    GpuCollector.Scrape scrape = collector.collect();
    assertThat(fake.stubCount(LIVE_SAMPLES)).isEqualTo(2);
    assertThat(byGpu(scrape, GR)).containsOnlyKeys("0");

    collector.close();
    assertThat(fake.stubCount(LIVE_SAMPLES)).isZero();
  }

  private GpuCollector start(FakeNvmlLibrary fake) {
    return start(fake, FakeNvmlLibrary.tickingClock());
  }

  private GpuCollector start(FakeNvmlLibrary fake, LongSupplier nanoTime) {
    GpuCollector collector = fake.collector(dir, nanoTime);
    collector.start();
    return collector;
  }

  /** The values of family {@code name} by {@code gpu} label; empty when it is absent. */
  private static Map<String, Double> byGpu(GpuCollector.Scrape scrape, String name) {
    Map<String, Double> values = new TreeMap<>();
    for (MetricFamily family : scrape.families()) {
      if (family.name().equals(name)) {
        for (MetricFamily.Sample sample : family.samples()) {
          values.put(sample.labels().get("gpu"), sample.value());
        }
      }
    }
    return values;
  }
}
