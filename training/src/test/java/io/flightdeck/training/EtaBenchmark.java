package io.flightdeck.training;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ETA accuracy measured, not asserted: for each run of {@link EtaCases} (the demo's run shapes,
 * generated runs with jitter, slow phases, stalls and restarts, real TensorBoard logdirs replayed)
 * the end the catalog predicts at 10%, 25% and 50% of the run against its true end, as a share of
 * the run's duration. Not part of the suite (no {@code Test} in its name): run it with {@code
 * -Dtest=EtaBenchmark} (and {@code -Deta.variations=24} for more generated runs); it prints the
 * table and writes it to {@code target/eta-benchmark.md} (copied by hand to {@code bench/eta.md}).
 * {@link EtaAccuracyTest} is the fast subset.
 */
class EtaBenchmark {
  /** Generated variations of each kind; {@code -Deta.variations=N} for more. */
  private static final int VARIATIONS = Integer.getInteger("eta.variations", 6);

  @Test
  void measure(@TempDir Path dir) throws IOException {
    List<EtaReplay.Outcome> outcomes = new ArrayList<>();
    try (TrainingStore store = new TrainingStore(dir.resolve("tsdb"))) {
      outcomes.add(EtaCases.demoMainJob(store));
      outcomes.add(EtaCases.demoSibling(store));
      outcomes.addAll(EtaCases.generatedRuns(store, VARIATIONS));
      outcomes.addAll(EtaCases.driftingRuns(store, VARIATIONS));
      outcomes.addAll(EtaCases.tensorBoardRuns(store));
    }
    String table = table(outcomes);
    System.out.println(table);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "eta-benchmark.md"), table);
  }

  static String table(List<EtaReplay.Outcome> outcomes) {
    StringBuilder out = new StringBuilder();
    out.append("| source | kind | runs | within 10% at 10% | at 25% | at 50% |")
        .append(
            " median abs. error at 10% / 25% / 50% | worst at 10% | true end in p10–p90 band |\n");
    out.append("|---|---|---|---|---|---|---|---|---|\n");
    for (String source : List.of("demo shape", "generated", "TensorBoard")) {
      for (String kind : kinds(outcomes, source)) {
        List<EtaReplay.Outcome> group =
            outcomes.stream()
                .filter(o -> o.source().startsWith(source) && kind(o).equals(kind))
                .toList();
        out.append("| ").append(source).append(" | ").append(kind).append(" | ");
        out.append(group.size());
        for (int i = 0; i < EtaReplay.FRACTIONS.length; i++) {
          out.append(" | ").append(within(group, i)).append('/').append(group.size());
        }
        out.append(" | ");
        for (int i = 0; i < EtaReplay.FRACTIONS.length; i++) {
          out.append(i > 0 ? " / " : "").append(percent(median(group, i)));
        }
        out.append(" | ").append(percent(worst(group, 0))).append(" | ");
        long inBand = group.stream().flatMap(o -> o.at().stream()).filter(p -> p.inBand()).count();
        out.append(inBand).append('/').append(group.size() * EtaReplay.FRACTIONS.length);
        out.append(" |\n");
      }
    }
    out.append(
        "\nPer run (error = (predicted end − true end) ÷ duration; – no ETA, with the status):\n\n");
    out.append("| run | source | hours | steps | at 10% | at 25% | at 50% |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (EtaReplay.Outcome o : outcomes) {
      out.append("| ")
          .append(o.name())
          .append(" | ")
          .append(o.source())
          .append(" | ")
          .append(String.format(Locale.ROOT, "%.1f", o.hours()))
          .append(" | ")
          .append(o.steps());
      for (EtaReplay.Prediction p : o.at()) {
        out.append(" | ")
            .append(
                p.errorOfDuration() == null
                    ? "– (" + p.status() + ")"
                    : signedPercent(p.errorOfDuration()));
      }
      out.append(" |\n");
    }
    return out.toString();
  }

  /** The kind of a generated run (its name less the variation), else "replay". */
  private static String kind(EtaReplay.Outcome o) {
    if (o.source().equals("demo shape")) {
      return o.name();
    }
    if (o.source().equals("generated")) {
      String name = o.name().replaceAll(" v\\d+$", "");
      if (name.contains("stall")) {
        return "stalls";
      }
      if (name.contains("restart")) {
        return "restarts";
      }
      if (name.startsWith("slowing") || name.startsWith("speeding up")) {
        return name.replaceAll(" \\d+%.*", "") + " at the start";
      }
      return name;
    }
    return "replay";
  }

  private static List<String> kinds(List<EtaReplay.Outcome> outcomes, String source) {
    return outcomes.stream()
        .filter(o -> o.source().startsWith(source))
        .map(EtaBenchmark::kind)
        .distinct()
        .toList();
  }

  static long within(List<EtaReplay.Outcome> group, int i) {
    return group.stream()
        .map(o -> o.at().get(i).errorOfDuration())
        .filter(e -> e != null && Math.abs(e) <= 0.10)
        .count();
  }

  private static Double median(List<EtaReplay.Outcome> group, int i) {
    double[] errors =
        group.stream()
            .map(o -> o.at().get(i).errorOfDuration())
            .filter(e -> e != null)
            .mapToDouble(Math::abs)
            .sorted()
            .toArray();
    return errors.length == 0 ? null : StepProgress.quantile(errors, 0.5);
  }

  private static Double worst(List<EtaReplay.Outcome> group, int i) {
    return group.stream()
        .map(o -> o.at().get(i).errorOfDuration())
        .filter(e -> e != null)
        .map(Math::abs)
        .max(Double::compare)
        .orElse(null);
  }

  private static String percent(Double v) {
    return v == null ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
  }

  private static String signedPercent(double v) {
    return String.format(Locale.ROOT, "%+.1f%%", 100 * v);
  }
}
