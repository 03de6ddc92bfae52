package io.flightdeck.dashboards;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Grafana's grid rule (react-grid-layout with vertical compaction): taken in order of {@code y}
 * then {@code x}, each panel rises as far as the panels above it allow, and a panel that overlaps
 * one already placed is pushed below it. So two panels saved at the same place end up one under the
 * other, as Grafana shows them.
 */
final class GridCompaction {
  private GridCompaction() {}

  /** The items placed by the rule, in order of their new {@code y} then {@code x}. */
  static List<GridItem> compact(List<GridItem> items) {
    List<GridItem> sorted = new ArrayList<>(items);
    sorted.sort(Comparator.comparingInt(GridItem::y).thenComparingInt(GridItem::x));
    List<GridItem> placed = new ArrayList<>();
    for (GridItem item : sorted) {
      int bottom = placed.stream().mapToInt(GridItem::bottom).max().orElse(0);
      GridItem moved = item.atY(Math.min(bottom, item.y()));
      while (moved.y() > 0 && collision(placed, moved.atY(moved.y() - 1)) == null) {
        moved = moved.atY(moved.y() - 1);
      }
      GridItem collider;
      while ((collider = collision(placed, moved)) != null) {
        moved = moved.atY(collider.bottom());
      }
      placed.add(moved);
    }
    placed.sort(Comparator.comparingInt(GridItem::y).thenComparingInt(GridItem::x));
    return placed;
  }

  private static GridItem collision(List<GridItem> placed, GridItem item) {
    for (GridItem other : placed) {
      boolean apart =
          item.x() + item.w() <= other.x()
              || other.x() + other.w() <= item.x()
              || item.bottom() <= other.y()
              || other.bottom() <= item.y();
      if (!apart) {
        return other;
      }
    }
    return null;
  }
}
