package io.flightdeck.promqltest;

import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.promql.parser.Expr;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a {@link Script} against the PromQL {@link Engine} on a real embedded database in a
 * temporary directory, one fresh database per {@code clear}. Native histograms and start timestamps
 * are not supported yet: evals that read such series or expect histograms are skipped, never
 * passed. One runner can run many scripts, one after another.
 */
public final class ScriptRunner {
  /**
   * The engine settings the upstream expectations assume: 10,000 samples at most (some scripts
   * expect that limit to fail a query) and a 100 s timeout.
   */
  static final EngineOptions TEST_ENGINE =
      EngineOptions.DEFAULT
          .withMaxSamples(10_000)
          .withTimeout(Duration.ofSeconds(100))
          .withDelayedNameRemoval(true);

  private final Engine engine;

  public ScriptRunner() {
    this(new Engine(TEST_ENGINE));
  }

  ScriptRunner(Engine engine) {
    this.engine = engine;
  }

  public ScriptResult run(Script script) {
    List<Outcome> outcomes = new ArrayList<>();
    try (ScriptStorage storage = new ScriptStorage()) {
      for (Command command : script.commands()) {
        switch (command) {
          case ClearCommand clear -> storage.clear();
          case LoadCommand load -> load(storage, load).ifPresent(outcomes::add);
          case EvalCommand eval -> outcomes.add(eval(storage, eval));
        }
      }
    }
    return new ScriptResult(script.name(), outcomes);
  }

  private static Optional<Outcome> load(ScriptStorage storage, LoadCommand load) {
    List<String> rejected = storage.load(load);
    if (!rejected.isEmpty()) {
      return Optional.of(
          Outcome.failed(
              load.line(),
              "load",
              rejected.size() + " samples rejected, the first: " + rejected.getFirst()));
    }
    List<String> left = new ArrayList<>();
    long histograms = load.series().stream().filter(SeriesDescription::hasHistograms).count();
    if (histograms > 0) {
      left.add(histograms + " native-histogram series not stored");
    }
    if (load.withNhcb()) {
      left.add("the native histograms load_with_nhcb converts from classic ones not stored");
    }
    if (!load.startTimestamped().isEmpty()) {
      left.add(load.startTimestamped().size() + " series stored without their start timestamps");
    }
    return left.isEmpty()
        ? Optional.empty()
        : Optional.of(Outcome.skipped(load.line(), "load", String.join("; ", left)));
  }

  private Outcome eval(ScriptStorage storage, EvalCommand eval) {
    if (eval.expr().isEmpty()) {
      return Outcome.failed(
          eval.line(),
          eval.query(),
          "does not parse: " + eval.parseError().orElseThrow().getMessage());
    }
    Expr expr = eval.expr().get();
    if (eval.expectsNativeHistograms()) {
      return Outcome.skipped(eval.line(), eval.query(), "expects native-histogram values");
    }
    Optional<String> unsupported = storage.unsupported().readBy(expr);
    if (unsupported.isPresent()) {
      return Outcome.skipped(eval.line(), eval.query(), unsupported.get());
    }
    Optional<String> problem;
    try {
      problem = new EvalRunner(engine, storage.queryable()).run(eval, expr);
    } catch (RuntimeException | StackOverflowError e) {
      problem = Optional.of("engine failed: " + e);
    }
    return problem
        .map(p -> Outcome.failed(eval.line(), eval.query(), p))
        .orElseGet(() -> Outcome.passed(eval.line(), eval.query()));
  }
}
