package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.collector.host.MetricsText;
import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.exposition.ParsedSample;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole GPU section, read through {@link JnaNvml} from the fake NVML library (three GPUs: one
 * full H100 with GPM, one older card with v1 memory, no GPM and few readings, one lost between
 * scrapes) and a fake procfs, must equal the golden /metrics body and parse as valid exposition.
 */
class GpuCollectorGoldenTest {
  static final String CONFIG =
      """
      count=3
      driver=590.48.01
      xid=0:79,0:79,1:13
      gpu0.name=NVIDIA H100 80GB HBM3
      gpu0.uuid=GPU-00000000-0000-0000-0000-000000000000
      gpu0.pci=00000000:07:00.0
      gpu0.util=87,41
      gpu0.enc=0
      gpu0.dec=0
      gpu0.mem.v2=85520809984,567279616,1048576000,83905953792
      gpu0.temp=64
      gpu0.power=512345
      gpu0.energy=123456789012
      gpu0.clock.sm=1980
      gpu0.clock.mem=2619
      gpu0.reasons=5
      gpu0.pcie.tx=1200
      gpu0.pcie.rx=3400
      gpu0.replay=2
      gpu0.ecc.0.0=7
      gpu0.ecc.1.0=0
      gpu0.ecc.0.1=12
      gpu0.ecc.1.1=1
      gpu0.remap=1,0,0,0
      gpu0.field.82=58
      gpu0.field.38=0
      gpu0.field.45=0
      gpu0.field.52=3
      gpu0.field.59=0
      gpu0.field.138=1000
      gpu0.field.139=2000
      gpu0.procs=4242:42949672960,4343:na
      gpu0.events=11
      gpu0.gpm=1
      gpu0.gpm.1=87.5
      gpu0.gpm.5=43.25
      gpu0.gpm.10=61
      gpu1.name=Tesla T4
      gpu1.uuid=GPU-11111111-1111-1111-1111-111111111111
      gpu1.pci=00000000:3B:00.0
      gpu1.util=3,1
      gpu1.mem.v2=ERR:13
      gpu1.mem.v1=16106127360,15728640000,377487360
      gpu1.temp=41
      gpu1.power=ERR:999
      gpu1.clock.sm=585
      gpu1.clock.mem=5000
      gpu1.events=8
      gpu1.gpm=0
      gpu2.name=NVIDIA H100 80GB HBM3
      gpu2.uuid=GPU-22222222-2222-2222-2222-222222222222
      gpu2.pci=00000000:0A:00.0
      gpu2.temp=30
      gpu2.events=0
      """;

  @TempDir Path dir;

  static Path goldenFile() throws URISyntaxException {
    return Paths.get(GpuCollectorGoldenTest.class.getResource("/gpu/golden/gpu.metrics").toURI());
  }

  /** A procfs with the rank-0 trainer of a Kubernetes pod as pid 4242; pid 4343 has exited. */
  static Path procfs(Path root) throws Exception {
    Path pid = Files.createDirectories(root.resolve("4242"));
    Files.writeString(pid.resolve("cmdline"), "python\0train.py\0--epochs\0003\0");
    Files.writeString(
        pid.resolve("cgroup"),
        "0::/kubepods.slice/kubepods-burstable.slice/"
            + "kubepods-burstable-pod1a2b3c4d_0000_1111_2222_333344445555.slice/"
            + "cri-containerd-"
            + "ab".repeat(32)
            + ".scope\n");
    Files.writeString(
        pid.resolve("environ"),
        "PATH=/usr/bin\0HOSTNAME=qwen-sft-worker-3\0RANK=0\0LOCAL_RANK=0\0WORLD_SIZE=16\0");
    Path serviceAccount =
        Files.createDirectories(pid.resolve("root/var/run/secrets/kubernetes.io/serviceaccount"));
    Files.writeString(serviceAccount.resolve("namespace"), "ml-team");
    return root;
  }

  @Test
  void fakeNvmlRendersTheGoldenBody() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, CONFIG);
    GpuCollector collector =
        fake.collector(procfs(dir.resolve("proc")), FakeNvmlLibrary.tickingClock());
    collector.start();
    try {
      assertThat(healthy(collector.collect())).containsEntry("2", 1.0);
      fake.configure(CONFIG + "gpu2.lost=1\n");
      GpuCollector.Scrape scrape = collector.collect();
      assertThat(xidsCounted(scrape)).as("Xid events drained by the collections").isEqualTo(3);
      String actual = MetricsText.toText(scrape.families());

      Path actualFile = Path.of("target", "gpu.metrics.actual");
      Files.createDirectories(actualFile.getParent());
      Files.writeString(actualFile, actual, StandardCharsets.UTF_8);

      assertThat(actual).isEqualTo(Files.readString(goldenFile(), StandardCharsets.UTF_8));
      assertThat(scrape.failures())
          .containsOnlyKeys("gpu1 powerUsage", "gpu2 xid events")
          .containsEntry(
              "gpu1 powerUsage", "[call=nvmlDeviceGetPowerUsage] [code=999] Unknown Error");
      assertThat(healthy(scrape)).containsEntry("0", 1.0).containsEntry("2", 0.0);

      List<ParsedSample> parsed =
          ExpositionParser.parseAll(
              ExpositionFormat.TEXT_0_0_4,
              actual.getBytes(StandardCharsets.UTF_8),
              ParseOptions.defaults());
      assertThat(parsed)
          .hasSize(scrape.families().stream().mapToInt(f -> f.samples().size()).sum());
    } finally {
      collector.close();
    }
  }

  @Test
  void lostGpuStaysVisibleWithItsIdentity() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, CONFIG);
    GpuCollector collector =
        GpuCollector.create(new GpuCollectorOptions(fake.path().toString(), "node-a", dir));
    collector.start();
    try {
      collector.collect();
      fake.configure(CONFIG + "gpu2.lost=1\n");
      collector.collect();
      // Even when the GPU answers again, a lost handle is not polled until restart.
      fake.configure(CONFIG);
      String text = MetricsText.toText(collector.collect().families());

      assertThat(text)
          .contains(
              "flightdeck_gpu_healthy{DCGM_FI_DRIVER_VERSION=\"590.48.01\",Hostname=\"node-a\","
                  + "UUID=\"GPU-22222222-2222-2222-2222-222222222222\",device=\"nvidia2\",gpu=\"2\","
                  + "modelName=\"NVIDIA H100 80GB HBM3\",pci_bus_id=\"00000000:0A:00.0\","
                  + "reason=\"gpu_is_lost\"} 0")
          .doesNotContain(
              "DCGM_FI_DEV_GPU_TEMP{DCGM_FI_DRIVER_VERSION=\"590.48.01\",Hostname=\"node-a\",UUID=\"GPU-2222");
    } finally {
      collector.close();
    }
  }

  @Test
  void gpuLostAtStartIsReportedByIndex() throws Exception {
    FakeNvmlLibrary fake =
        FakeNvmlLibrary.build(dir, "count=2\ngpu0.temp=50\ngpu1.handle=ERR:15\n");
    GpuCollector collector =
        GpuCollector.create(new GpuCollectorOptions(fake.path().toString(), "node-a", dir));
    collector.start();
    try {
      String text = MetricsText.toText(collector.collect().families());

      assertThat(text)
          .contains(
              "flightdeck_gpu_healthy{Hostname=\"node-a\",device=\"nvidia1\",gpu=\"1\","
                  + "reason=\"gpu_is_lost\"} 0")
          .contains("DCGM_FI_DEV_GPU_TEMP{Hostname=\"node-a\",device=\"nvidia0\",gpu=\"0\"} 50");
    } finally {
      collector.close();
    }
  }

  @Test
  void missingLibraryGivesOneFailureAndNoSeries() {
    GpuCollector collector =
        GpuCollector.create(
            new GpuCollectorOptions(dir.resolve("nope.so").toString(), "node-a", dir));
    collector.start();

    GpuCollector.Scrape scrape = collector.collect();
    collector.close();

    assertThat(scrape.families()).isEmpty();
    assertThat(scrape.failures()).containsOnlyKeys("nvml");
    assertThat(scrape.failures().get("nvml")).startsWith("NVML not available: ");
  }

  private static double xidsCounted(GpuCollector.Scrape scrape) {
    return scrape.families().stream()
        .filter(f -> f.name().equals(XidMonitor.XID_ERRORS_TOTAL))
        .flatMap(f -> f.samples().stream())
        .mapToDouble(MetricFamily.Sample::value)
        .sum();
  }

  private static Map<String, Double> healthy(GpuCollector.Scrape scrape) {
    return scrape.families().stream()
        .filter(f -> f.name().equals(GpuFamilies.HEALTHY_METRIC))
        .flatMap(f -> f.samples().stream())
        .collect(
            java.util.stream.Collectors.toMap(
                s -> s.labels().get("gpu"), MetricFamily.Sample::value));
  }
}
