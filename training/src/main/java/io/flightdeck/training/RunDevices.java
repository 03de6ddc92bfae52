package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the samples of the run's GPUs and hosts from series named as dcgm-exporter and
 * node_exporter name them. A GPU with several series of one metric (an exporter restarted with
 * other labels) keeps the one with the most samples.
 */
final class RunDevices {
  private RunDevices() {}

  /** One series read. */
  record Read(Labels labels, SeriesReads.Samples samples) {}

  /** The samples of {@code metric} of each run GPU that has any, in the run's GPU order. */
  static Map<RunGpu, Read> gpus(RunWindow window, String metric) {
    Map<RunGpu, Read> found = new LinkedHashMap<>();
    for (RunGpu gpu : window.hardware().gpus()) {
      found.put(gpu, null);
    }
    SeriesSet set = window.querier().select(false, Matcher.equal(Labels.METRIC_NAME, metric));
    while (set.next()) {
      Series series = set.at();
      RunGpu gpu = gpuOf(series.labels(), window.hardware());
      if (gpu == null) {
        continue;
      }
      SeriesReads.Samples samples = SeriesReads.range(series, window.readFrom(), window.endMs());
      Read known = found.get(gpu);
      if (known == null || known.samples().size() < samples.size()) {
        found.put(gpu, new Read(series.labels(), samples));
      }
    }
    found.values().removeIf(r -> r == null || r.samples().isEmpty());
    return found;
  }

  /** Every series of the run's hosts that the matchers select, with the host it belongs to. */
  static List<Map.Entry<String, Read>> hosts(RunWindow window, Matcher... matchers) {
    List<Map.Entry<String, Read>> found = new ArrayList<>();
    SeriesSet set = window.querier().select(false, matchers);
    while (set.next()) {
      Series series = set.at();
      String host = hostOf(series.labels(), window.hardware());
      if (host != null) {
        SeriesReads.Samples samples = SeriesReads.range(series, window.readFrom(), window.endMs());
        if (!samples.isEmpty()) {
          found.add(Map.entry(host, new Read(series.labels(), samples)));
        }
      }
    }
    return found;
  }

  /** The run's GPU a GPU series belongs to, or null. */
  static RunGpu gpuOf(Labels labels, RunHardware hardware) {
    String index = labels.get("gpu");
    for (String host : Hosts.allOf(labels)) {
      for (RunGpu gpu : hardware.gpus()) {
        if (gpu.gpu().equals(index) && gpu.host().equals(host)) {
          return gpu;
        }
      }
    }
    return null;
  }

  /** The run's host a series was measured on, or null. */
  static String hostOf(Labels labels, RunHardware hardware) {
    for (String host : Hosts.allOf(labels)) {
      if (hardware.hosts().contains(host)) {
        return host;
      }
    }
    String host = Hosts.of(labels);
    return hardware.hosts().contains(host) ? host : null;
  }

  /** The last value at or before {@code t}, no older than {@code maxAgeMs}; NaN when none. */
  static double valueAt(SeriesReads.Samples samples, long t, long maxAgeMs) {
    int i = java.util.Arrays.binarySearch(samples.times(), t);
    int at = i >= 0 ? i : -i - 2;
    if (at < 0 || t - samples.times()[at] > maxAgeMs) {
      return Double.NaN;
    }
    return samples.values()[at];
  }

  /** The values with {@code from <= t < to}. */
  static double[] between(SeriesReads.Samples samples, long from, long to) {
    int a = lowerBound(samples.times(), from);
    int b = lowerBound(samples.times(), to);
    return java.util.Arrays.copyOfRange(samples.values(), a, Math.max(a, b));
  }

  static int lowerBound(long[] times, long t) {
    int i = java.util.Arrays.binarySearch(times, t);
    if (i < 0) {
      return -i - 1;
    }
    while (i > 0 && times[i - 1] == t) {
      i--;
    }
    return i;
  }
}
