package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Keeps everything a reader hands out, for assertions. */
final class CollectingListener implements EventListener {
  final List<SummaryPoint> points = new ArrayList<>();
  final List<Corruption> corruptions = new ArrayList<>();
  final List<String> versions = new ArrayList<>();

  @Override
  public void point(SummaryPoint point) {
    points.add(point);
  }

  @Override
  public void corruption(Corruption corruption) {
    corruptions.add(corruption);
  }

  @Override
  public void fileVersion(Path file, String version) {
    versions.add(version);
  }

  <T extends SummaryPoint> List<T> of(Class<T> type) {
    return points.stream().filter(type::isInstance).map(type::cast).toList();
  }

  <T extends SummaryPoint> List<T> of(Class<T> type, String tag) {
    return of(type).stream().filter(p -> p.tag().equals(tag)).toList();
  }
}
