package io.flightdeck.api;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Text samples held in a list, answering as a text store does (without preemption). */
final class FakeTexts implements TensorBoardTexts {
  private static final Comparator<TensorBoardText> ORDER =
      Comparator.comparing(TensorBoardText::logdir)
          .thenComparing(TensorBoardText::run)
          .thenComparing(TensorBoardText::tag)
          .thenComparingLong(TensorBoardText::step);

  private final List<TensorBoardText> samples = new ArrayList<>();
  int lastSearchLimit;

  FakeTexts add(String logdir, String run, String tag, long step, double wall, String... values) {
    samples.add(new TensorBoardText(logdir, run, tag, step, wall, List.of(values)));
    samples.sort(ORDER);
    return this;
  }

  @Override
  public List<String> logdirs() {
    return samples.stream().map(TensorBoardText::logdir).distinct().toList();
  }

  @Override
  public List<String> runs(String logdir) {
    return samples.stream()
        .filter(s -> s.logdir().equals(logdir))
        .map(TensorBoardText::run)
        .distinct()
        .toList();
  }

  @Override
  public List<String> tags(String logdir, String run) {
    return samples.stream()
        .filter(s -> s.logdir().equals(logdir) && s.run().equals(run))
        .map(TensorBoardText::tag)
        .distinct()
        .toList();
  }

  @Override
  public List<TensorBoardText> fetch(
      String logdir, String run, String tag, long minStep, long maxStep) {
    return samples.stream()
        .filter(
            s ->
                s.logdir().equals(logdir)
                    && s.run().equals(run)
                    && s.tag().equals(tag)
                    && s.step() >= minStep
                    && s.step() <= maxStep)
        .toList();
  }

  @Override
  public List<TensorBoardText> search(String needle, int limit) {
    lastSearchLimit = limit;
    return samples.stream()
        .filter(s -> s.values().stream().anyMatch(v -> v.contains(needle)))
        .limit(limit)
        .toList();
  }
}
