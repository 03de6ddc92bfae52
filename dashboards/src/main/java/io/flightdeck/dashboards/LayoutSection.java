package io.flightdeck.dashboards;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * A run of the grid: the panels above the first row (no title) or one row with its title, whether
 * it starts collapsed, and the variable it repeats by ({@code ""} for none).
 */
public record LayoutSection(String title, boolean collapsed, String repeat, List<GridItem> items) {
  public LayoutSection {
    repeat = Text.orEmpty(repeat);
    items = items == null ? List.of() : List.copyOf(items);
  }

  /** Whether this section is a row with a header, rather than the panels above the first row. */
  @JsonIgnore
  public boolean isRow() {
    return title != null;
  }

  /** Rows of grid the section's panels take, below its header. */
  int height() {
    return items.stream().mapToInt(GridItem::bottom).max().orElse(0);
  }
}
