package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns Grafana's flat {@code panels} list into sections: panels sorted by position as Grafana does
 * on load; a row starts a section whose members are its own {@code panels} when collapsed and the
 * top-level panels that follow it, up to the next row, when expanded. Positions become relative to
 * the section, then overlaps are resolved by vertical compaction.
 */
final class GrafanaLayoutReader {
  private final GrafanaPanelReader panels;
  private final ReportBuilder report;
  private final Map<String, Panel> byId = new LinkedHashMap<>();
  private final Set<Integer> usedIds = new HashSet<>();
  private final List<LayoutSection> sections = new ArrayList<>();
  private final Map<JsonNode, String> sourcePaths;

  /**
   * @param sourcePaths where a panel converted from an older layout sat in the file (by identity),
   *     so that the report names that place; others are named by their place in {@code panels}
   */
  GrafanaLayoutReader(
      GrafanaPanelReader panels, ReportBuilder report, Map<JsonNode, String> sourcePaths) {
    this.panels = panels;
    this.report = report;
    this.sourcePaths = sourcePaths;
  }

  Map<String, Panel> panels() {
    return byId;
  }

  List<LayoutSection> sections() {
    return sections;
  }

  private record Located(ObjectNode panel, String path, int x, int y, int w, int h) {
    boolean isRow() {
      return "row".equals(panel.path("type").asText());
    }
  }

  void read(JsonNode dashboard, String path) {
    List<Located> top = located(Json.objects(dashboard, "panels", path), Json.path(path, "panels"));
    collectIds(top);
    String title = null;
    boolean collapsed = false;
    String repeat = "";
    int origin = 0;
    List<GridItem> items = new ArrayList<>();
    boolean started = false;
    for (Located entry : top) {
      if (!entry.isRow()) {
        items.add(item(entry, origin));
        started = true;
        continue;
      }
      if (started || title != null) {
        finish(title, collapsed, repeat, items);
      }
      items = new ArrayList<>();
      started = true;
      title = Json.text(entry.panel(), "title", entry.path());
      collapsed = Json.bool(entry.panel(), "collapsed", false);
      repeat = Json.text(entry.panel(), "repeat", entry.path());
      origin = entry.y() + 1;
      String membersPath = Json.path(entry.path(), "panels");
      List<Located> members =
          located(Json.objects(entry.panel(), "panels", entry.path()), membersPath);
      if (!collapsed && !members.isEmpty()) {
        report.warn(membersPath + ": an expanded row should not hold panels; they were kept");
      }
      collectIds(members);
      for (Located member : members) {
        if (member.isRow()) {
          throw new DashboardFormatException(member.path(), "a row inside a row");
        }
        items.add(item(member, origin));
      }
    }
    if (started) {
      finish(title, collapsed, repeat, items);
    }
  }

  private void finish(String title, boolean collapsed, String repeat, List<GridItem> items) {
    List<GridItem> compacted = GridCompaction.compact(items);
    for (GridItem before : items) {
      GridItem after =
          compacted.stream()
              .filter(i -> i.panel().equals(before.panel()))
              .findFirst()
              .orElseThrow();
      if (after.y() > before.y()) {
        report.warn(
            "panel \""
                + byId.get(before.panel()).title()
                + "\" overlapped another and was moved down from y="
                + before.y()
                + " to y="
                + after.y()
                + (title == null ? "" : " in row \"" + title + "\""));
      }
    }
    sections.add(new LayoutSection(title, collapsed, repeat, compacted));
  }

  private GridItem item(Located entry, int origin) {
    String id = idOf(entry.panel());
    byId.put(id, panels.read(entry.panel(), entry.path()));
    return new GridItem(id, entry.x(), Math.max(0, entry.y() - origin), entry.w(), entry.h());
  }

  private List<Located> located(List<ObjectNode> list, String path) {
    List<Located> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ObjectNode panel = list.get(i);
      String at = sourcePaths.getOrDefault(panel, Json.path(path, i));
      JsonNode pos = panel.get("gridPos");
      if (pos == null || pos.isNull()) {
        report.warn(at + ": no gridPos; placed at the bottom, 12 columns by 8 rows");
        out.add(new Located(panel, at, 0, Integer.MAX_VALUE / 2, 12, 8));
        continue;
      }
      if (!pos.isObject()) {
        throw new DashboardFormatException(
            Json.path(at, "gridPos"), "expected an object, got " + Json.typeName(pos));
      }
      String posPath = Json.path(at, "gridPos");
      int x = Json.integer(pos, "x", 0, posPath);
      int y = Json.integer(pos, "y", 0, posPath);
      int w = Json.integer(pos, "w", 12, posPath);
      int h = Json.integer(pos, "h", 8, posPath);
      if (x < 0 || y < 0 || w <= 0 || h <= 0) {
        throw new DashboardFormatException(
            posPath, "x and y must be 0 or more, w and h more than 0");
      }
      int clampedX = Math.min(x, GridItem.COLUMNS - 1);
      int clampedW = Math.min(w, GridItem.COLUMNS - clampedX);
      if (clampedX != x || clampedW != w) {
        report.warn(posPath + ": wider than the 24-column grid; narrowed to fit");
      }
      out.add(new Located(panel, at, clampedX, y, clampedW, h));
    }
    out.sort(Comparator.comparingInt(Located::y).thenComparingInt(Located::x));
    return out;
  }

  private void collectIds(List<Located> entries) {
    for (Located entry : entries) {
      JsonNode id = entry.panel().get("id");
      if (id != null && id.canConvertToInt() && !entry.isRow()) {
        if (!usedIds.add(id.asInt())) {
          entry.panel().remove("id"); // a duplicate is renumbered in idOf
          report.warn(entry.path() + ": duplicate panel id " + id.asInt() + "; renumbered");
        }
      }
    }
  }

  private String idOf(ObjectNode panel) {
    JsonNode id = panel.get("id");
    if (id != null && id.canConvertToInt() && id.isIntegralNumber()) {
      return String.valueOf(id.asInt());
    }
    int next = 1;
    while (usedIds.contains(next)) {
      next++;
    }
    usedIds.add(next);
    return String.valueOf(next);
  }
}
