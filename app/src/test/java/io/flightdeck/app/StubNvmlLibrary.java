package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The collector module's fake libnvidia-ml ({@code collector/src/test/c/fake_nvml.c}) built with
 * gcc for agent tests, with a two-GPU configuration beside it. A missing gcc fails the test.
 */
final class StubNvmlLibrary {
  private static final Path SOURCE = Path.of("..", "collector", "src", "test", "c", "fake_nvml.c");
  private static final Path GCC = Path.of("/usr/bin/gcc");

  static final String CONFIG =
      """
      count=2
      driver=590.48.01
      gpu0.name=NVIDIA H100 80GB HBM3
      gpu0.uuid=GPU-00000000-0000-0000-0000-000000000000
      gpu0.pci=00000000:07:00.0
      gpu0.util=87,41
      gpu0.temp=64
      gpu0.power=512345
      gpu1.name=NVIDIA H100 80GB HBM3
      gpu1.uuid=GPU-11111111-1111-1111-1111-111111111111
      gpu1.pci=00000000:08:00.0
      gpu1.util=12,3
      gpu1.temp=41
      """;

  private StubNvmlLibrary() {}

  /**
   * Compiles the stub into {@code dir}; returns the library's path. GPU 0 reports the calling JVM
   * as a process using 1 GiB.
   */
  static Path build(Path dir) throws IOException, InterruptedException {
    if (!Files.isExecutable(GCC)) {
      fail("gcc not found at " + GCC + ": it is needed to build the fake NVML library");
    }
    Path library = dir.resolve("libnvidia-ml.so.1");
    Process gcc =
        new ProcessBuilder(
                GCC.toString(),
                "-shared",
                "-fPIC",
                "-O1",
                "-o",
                library.toString(),
                SOURCE.toAbsolutePath().normalize().toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).as("gcc finished").isTrue();
    assertThat(gcc.exitValue()).as("gcc output: %s", output).isZero();
    String self = "gpu0.procs=" + ProcessHandle.current().pid() + ":1073741824\n";
    Files.writeString(dir.resolve("fake-nvml.conf"), CONFIG + self, StandardCharsets.UTF_8);
    return library;
  }
}
