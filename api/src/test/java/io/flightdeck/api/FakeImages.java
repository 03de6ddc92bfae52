package io.flightdeck.api;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Images held in a list, in the order added, answering as an image store does. */
final class FakeImages implements TensorBoardImages {
  private final List<TensorBoardImage> images = new ArrayList<>();

  /** An image whose bytes are {@code text} in UTF-8, typed as PNG. */
  FakeImages add(String logdir, String run, String tag, long step, int index, String text) {
    images.add(
        new TensorBoardImage(
            logdir, run, tag, step, 1_700_000_000 + step, index, 4, 3, "image/png", text.length()));
    return this;
  }

  @Override
  public List<String> logdirs() {
    return images.stream().map(TensorBoardImage::logdir).distinct().sorted().toList();
  }

  @Override
  public List<String> runs(String logdir) {
    return images.stream()
        .filter(i -> i.logdir().equals(logdir))
        .map(TensorBoardImage::run)
        .distinct()
        .sorted()
        .toList();
  }

  @Override
  public List<String> tags(String logdir, String run) {
    return images.stream()
        .filter(i -> i.logdir().equals(logdir) && i.run().equals(run))
        .map(TensorBoardImage::tag)
        .distinct()
        .sorted()
        .toList();
  }

  @Override
  public List<TensorBoardImage> list(
      String logdir, String run, String tag, long minStep, long maxStep) {
    return images.stream()
        .filter(
            i ->
                i.logdir().equals(logdir)
                    && i.run().equals(run)
                    && i.tag().equals(tag)
                    && i.step() >= minStep
                    && i.step() <= maxStep)
        .toList();
  }

  @Override
  public Optional<TensorBoardImageBytes> read(
      String logdir, String run, String tag, long step, int index) {
    return list(logdir, run, tag, step, step).stream()
        .filter(i -> i.index() == index)
        .findFirst()
        .map(
            i ->
                new TensorBoardImageBytes(
                    i.contentType(),
                    (tag + "@" + step + "#" + index).getBytes(StandardCharsets.UTF_8)));
  }
}
