package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Builds the fake libnvidia-ml of {@code src/test/c/fake_nvml.c} with gcc into a folder, beside its
 * {@code fake-nvml.conf}. A missing gcc fails the test: the NVML path must not go untested.
 */
final class FakeNvmlLibrary {
  private static final Path SOURCE = Path.of("src", "test", "c", "fake_nvml.c");
  private static final Path GCC = Path.of("/usr/bin/gcc");

  private final Path library;

  private FakeNvmlLibrary(Path library) {
    this.library = library;
  }

  /**
   * Compiles the stub into {@code dir} and writes {@code config} as its configuration; {@code
   * defines} are preprocessor symbols such as {@code FAKE_NVML_NO_GPM}.
   */
  static FakeNvmlLibrary build(Path dir, String config, String... defines)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(GCC)) {
      fail("gcc not found at " + GCC + ": it is needed to build the fake NVML library");
    }
    Path library = dir.resolve("libnvidia-ml.so.1");
    List<String> command =
        new ArrayList<>(List.of(GCC.toString(), "-shared", "-fPIC", "-Wall", "-Werror"));
    for (String define : defines) {
      command.add("-D" + define);
    }
    command.addAll(List.of("-o", library.toString(), SOURCE.toAbsolutePath().toString()));
    Process gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).as("gcc finished").isTrue();
    assertThat(gcc.exitValue()).as("gcc output: %s", output).isZero();
    FakeNvmlLibrary fake = new FakeNvmlLibrary(library);
    fake.configure(config);
    return fake;
  }

  /** Replaces the configuration; the stub re-reads it on init and on every device count. */
  void configure(String config) throws IOException {
    Files.writeString(library.resolveSibling("fake-nvml.conf"), config, StandardCharsets.UTF_8);
  }

  Path path() {
    return library;
  }

  /**
   * Calls one of the stub's own {@code int f(void)} functions, such as {@code
   * fake_gpm_live_samples}, in the same loaded library the collector uses.
   */
  int stubCount(String function) {
    return NativeLibrary.getInstance(library.toString())
        .getFunction(function)
        .invokeInt(new Object[0]);
  }

  /**
   * A collector on the stub for host {@code node-a}, reading processes under {@code procRoot}, with
   * {@code nanoTime} as its clock (GPM samples are paced by it).
   */
  GpuCollector collector(Path procRoot, LongSupplier nanoTime) {
    return new GpuCollector(
        () -> JnaNvml.load(library.toString()),
        "node-a",
        new ProcessInfoReader(procRoot),
        nanoTime);
  }

  /** A clock one second further on at every reading: GPM samples are never too close. */
  static LongSupplier tickingClock() {
    AtomicLong now = new AtomicLong();
    return () -> now.addAndGet(1_000_000_000L);
  }

  /** Loads the stub through {@link JnaNvml}, which must succeed. */
  Nvml load() {
    return load(true);
  }

  /** As {@link #load()}; without {@code tryDirect} every call is looked up per call. */
  JnaNvml load(boolean tryDirect) {
    NvmlLoad load = JnaNvml.load(library.toString(), tryDirect);
    assertThat(load).isInstanceOf(NvmlLoad.Available.class);
    return (JnaNvml) ((NvmlLoad.Available) load).nvml();
  }
}
