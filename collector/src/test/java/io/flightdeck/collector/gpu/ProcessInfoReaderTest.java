package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessInfoReaderTest {
  @TempDir Path proc;

  @Test
  void readsPodAndRanksFromACgroupV2Process() throws Exception {
    GpuCollectorGoldenTest.procfs(proc);

    ProcessDetails details = new ProcessInfoReader(proc).read(4242);

    assertThat(details.commandLine()).contains("python train.py --epochs 3");
    assertThat(details.podUid()).contains("1a2b3c4d-0000-1111-2222-333344445555");
    assertThat(details.pod()).contains("qwen-sft-worker-3");
    assertThat(details.namespace()).contains("ml-team");
    assertThat(details.containerId()).contains("ab".repeat(32));
    assertThat(details.rankEnvironment())
        .isEqualTo(Map.of("RANK", "0", "LOCAL_RANK", "0", "WORLD_SIZE", "16"));
  }

  @Test
  void readsCgroupV1DockerPathWithoutPod() throws Exception {
    Path pid = Files.createDirectories(proc.resolve("7"));
    String id = "0123456789abcdef".repeat(4);
    Files.writeString(
        pid.resolve("cgroup"), "12:pids:/docker/" + id + "\n11:cpu,cpuacct:/docker/" + id + "\n");
    Files.writeString(pid.resolve("environ"), "HOSTNAME=build-box\0");

    ProcessDetails details = new ProcessInfoReader(proc).read(7);

    assertThat(details.cgroupPath()).contains("/docker/" + id);
    assertThat(details.containerId()).contains(id);
    assertThat(details.podUid()).isEmpty();
    assertThat(details.pod()).as("outside a pod HOSTNAME is no pod name").isEmpty();
    assertThat(details.commandLine()).isEmpty();
  }

  @Test
  void exitedProcessIsUnknown() {
    assertThat(new ProcessInfoReader(proc).read(99))
        .isEqualTo(
            new ProcessDetails(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of()));
  }
}
