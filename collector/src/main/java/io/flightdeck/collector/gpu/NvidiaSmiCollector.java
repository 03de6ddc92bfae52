package io.flightdeck.collector.gpu;

import io.flightdeck.collector.host.MetricFamily;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * GPU metrics from {@code nvidia-smi -q -x}, the fallback where NVML cannot be loaded in-process
 * but the {@code nvidia-smi} tool runs (a container with the tool mounted but not the library on
 * the linker's path, say). The same DCGM names and labels as the NVML path ({@link
 * NvidiaSmiXmlParser} reads what the XML offers); no Xid events or GPM ratios, which only NVML's
 * API gives. One collecting thread.
 */
public final class NvidiaSmiCollector {
  private static final String TOOL = "nvidia-smi";

  /** nvidia-smi answers in well under a second on a healthy node; a hung driver must not stall. */
  private static final long TIMEOUT_SECONDS = 10;

  /** The XML of a 16-GPU node is about 300 KB; more means something else answered. */
  private static final int MAX_OUTPUT_BYTES = 16 << 20;

  private final Path binary;
  private final String hostname;
  private final ProcessInfoReader processes;
  private final NvidiaSmiXmlParser parser = new NvidiaSmiXmlParser();
  private GpuFamilies families;

  public NvidiaSmiCollector(Path binary, String hostname, Path procRoot) {
    this.binary = binary;
    this.hostname = hostname;
    this.processes = new ProcessInfoReader(procRoot);
  }

  /** The first executable {@code nvidia-smi} in the directories of {@code path} (as $PATH). */
  public static Optional<Path> onPath(String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        Path candidate = Path.of(dir, TOOL);
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  public Path binary() {
    return binary;
  }

  /** One collection; a failed run or unreadable XML is a failure named {@code nvidia-smi}. */
  public GpuCollector.Scrape collect() {
    NvidiaSmiLog log;
    try {
      log = parser.parse(run());
    } catch (IOException | NvidiaSmiXmlParser.NvidiaSmiXmlException e) {
      return new GpuCollector.Scrape(List.of(), Map.of(TOOL, e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new GpuCollector.Scrape(List.of(), Map.of(TOOL, "interrupted"));
    }
    if (families == null) {
      families = new GpuFamilies(hostname, log.driverVersion());
    }
    List<MetricFamily> rendered = families.render(log.gpus(), processes::read);
    return new GpuCollector.Scrape(List.copyOf(rendered), Map.of());
  }

  /** Runs the tool into a temporary file, so that a hung tool is noticed by its timeout. */
  private byte[] run() throws IOException, InterruptedException {
    Path output = Files.createTempFile("flightdeck-nvidia-smi", ".xml");
    try {
      Process process =
          new ProcessBuilder(binary.toString(), "-q", "-x")
              .redirectOutput(output.toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(binary + " -q -x did not finish within " + TIMEOUT_SECONDS + " s");
      }
      if (Files.size(output) > MAX_OUTPUT_BYTES) {
        throw new IOException(binary + " -q -x wrote more than " + MAX_OUTPUT_BYTES + " bytes");
      }
      byte[] xml = Files.readAllBytes(output);
      if (process.exitValue() != 0) {
        throw new IOException(
            binary
                + " -q -x exited with "
                + process.exitValue()
                + (xml.length == 0 ? "" : ": " + firstLine(xml)));
      }
      return xml;
    } finally {
      Files.deleteIfExists(output);
    }
  }

  private static String firstLine(byte[] output) {
    String text = new String(output, 0, Math.min(output.length, 200), StandardCharsets.UTF_8);
    int newline = text.indexOf('\n');
    return (newline < 0 ? text : text.substring(0, newline)).strip();
  }
}
