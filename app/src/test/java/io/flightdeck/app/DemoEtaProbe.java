package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ETA of each run of the live demo as the runs table shows it ({@code /api/v1/runs}), asked at
 * every poll and judged once the demo is over (issue 26: after 10% of a run, its predicted end
 * within 10% of its true end). A run that finished ends at its last sample; one that crashed (the
 * demo's main job dies of its XID 79) has no true end and is listed as such.
 */
final class DemoEtaProbe {
  static final double[] FRACTIONS = {0.10, 0.25, 0.50};
  static final double GOAL = 0.10;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the runs table said about a run at one moment (unix s); NaN where it gave no ETA. */
  private record Said(double atSeconds, String status, double eta, double low, double high) {}

  private final Map<String, List<Said>> said = new TreeMap<>();
  private final Map<String, JsonNode> last = new TreeMap<>();

  /** Asks the runs table once. */
  void poll(FlightdeckServerProcess server) throws Exception {
    JsonNode runs = JSON.readTree(TestHttp.get(server.uri("/api/v1/runs")).body()).path("data");
    double now = System.currentTimeMillis() / 1000.0;
    for (JsonNode run : runs) {
      String name = run.path("run").asText();
      last.put(name, run);
      said.computeIfAbsent(name, n -> new ArrayList<>())
          .add(
              new Said(
                  now,
                  run.path("status").asText(),
                  number(run, "eta_seconds"),
                  number(run, "eta_low_seconds"),
                  number(run, "eta_high_seconds")));
    }
  }

  private static double number(JsonNode run, String field) {
    JsonNode value = run.path(field);
    return value.isNumber() ? value.asDouble() : Double.NaN;
  }

  /**
   * One run's predictions at {@link #FRACTIONS}; errors are of its duration, NaN for none.
   *
   * @param hours from its first to its last sample, in wall-clock hours
   */
  record Judged(
      String run, String status, double hours, double[] errors, boolean[] inBand, String note) {
    boolean metGoal() {
      for (double error : errors) {
        if (!(Math.abs(error) <= GOAL)) {
          return false;
        }
      }
      return errors.length > 0;
    }
  }

  /** Every run seen, judged against its true end where it has one. */
  List<Judged> judge() {
    List<Judged> judged = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : last.entrySet()) {
      String run = entry.getKey();
      JsonNode summary = entry.getValue();
      String status = summary.path("status").asText();
      double start = summary.path("first_seen").asDouble();
      double end = summary.path("last_seen").asDouble();
      double hours = (end - start) / 3600;
      if (!status.equals("finished")) {
        judged.add(
            new Judged(
                run, status, hours, new double[0], new boolean[0], "no true end: " + status));
        continue;
      }
      double[] errors = new double[FRACTIONS.length];
      boolean[] inBand = new boolean[FRACTIONS.length];
      for (int f = 0; f < FRACTIONS.length; f++) {
        Said at = firstAfter(said.get(run), start + FRACTIONS[f] * (end - start));
        errors[f] = at == null ? Double.NaN : (at.atSeconds() + at.eta() - end) / (end - start);
        inBand[f] =
            at != null && at.atSeconds() + at.low() <= end && end <= at.atSeconds() + at.high();
      }
      judged.add(new Judged(run, status, hours, errors, inBand, ""));
    }
    return judged;
  }

  private static Said firstAfter(List<Said> said, double atSeconds) {
    for (Said s : said) {
      if (s.atSeconds() >= atSeconds) {
        return s;
      }
    }
    return null;
  }

  /** The judged runs as a markdown table. */
  static String table(List<Judged> judged, double speed) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "ETA of the demo's runs at %.0f×, as /api/v1/runs gave it: error = (predicted end −"
                + " true end) ÷ duration%n%n",
            speed));
    out.append(
        "| run | status | simulated hours | at 10% | at 25% | at 50% | true end in band |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (Judged j : judged) {
      out.append("| ").append(j.run()).append(" | ").append(j.status()).append(" | ");
      out.append(String.format(Locale.ROOT, "%.2f", j.hours() * speed)).append(" | ");
      if (j.errors().length == 0) {
        out.append(j.note()).append(" | | | |\n");
        continue;
      }
      int in = 0;
      for (int f = 0; f < j.errors().length; f++) {
        out.append(
                Double.isNaN(j.errors()[f])
                    ? "no ETA"
                    : String.format(Locale.ROOT, "%+.1f%%", 100 * j.errors()[f]))
            .append(" | ");
        in += j.inBand()[f] ? 1 : 0;
      }
      out.append(in).append('/').append(j.errors().length).append(" |\n");
    }
    return out.toString();
  }
}
