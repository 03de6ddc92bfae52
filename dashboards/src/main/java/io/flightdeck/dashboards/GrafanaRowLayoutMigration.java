package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grafana's step to schemaVersion 16: the {@code rows} of 12-column {@code span}s and pixel heights
 * become the flat {@code panels} list with {@code gridPos}, placed the way Grafana places them when
 * it loads such a dashboard. Each row is a band as tall as its height (38 px per grid unit: a 30 px
 * cell and its 8 px margin); its panels fill the band left to right and wrap to a new band when the
 * space left at the right is too narrow. When any row is collapsed, repeated or shows its title,
 * every row becomes a row panel and a collapsed one holds its panels; otherwise the rows leave no
 * trace but the positions.
 */
final class GrafanaRowLayoutMigration {
  /** Grafana's old defaults: a row 250 px tall, a panel 4 of 12 columns wide, 90 px at least. */
  private static final int DEFAULT_ROW_HEIGHT_PX = 250;

  private static final int DEFAULT_SPAN = 4;
  private static final int MIN_HEIGHT_PX = 90;
  private static final int PX_PER_GRID_UNIT = 38;

  private static final int OLD_COLUMNS = 12;
  private static final Pattern LEADING_INTEGER = Pattern.compile("^\\s*([+-]?\\d{1,18})");

  /** A bound far above any screen, so that positions stay small numbers. */
  private static final int MAX_HEIGHT_PX = 100_000;

  /** Row fields read here, or that only drew the old row header (Grafana drops them too). */
  private static final List<String> ROW_FIELDS =
      List.of(
          "title",
          "height",
          "collapse",
          "showTitle",
          "repeat",
          "panels",
          "editable",
          "id",
          "$$hashKey",
          "repeatIteration",
          "repeatRowId",
          "scopedVars",
          "titleSize");

  private final ReportBuilder report;
  private final Map<JsonNode, String> sourcePaths;

  /**
   * @param sourcePaths filled with the original JSON path of every panel and row it writes, so that
   *     what is reported later names the place in the file the user has
   */
  GrafanaRowLayoutMigration(ReportBuilder report, Map<JsonNode, String> sourcePaths) {
    this.report = report;
    this.sourcePaths = sourcePaths;
  }

  /** The flat panel list for {@code rows}, whose panels are the same nodes, given a gridPos. */
  ArrayNode convert(List<ObjectNode> rows, String rowsPath) {
    ArrayNode out = Json.NODES.arrayNode();
    boolean rowPanels = false;
    for (ObjectNode row : rows) {
      rowPanels |=
          Json.bool(row, "collapse", false)
              || Json.bool(row, "showTitle", false)
              || !Json.isEmpty(row.get("repeat"));
    }
    int y = 0;
    for (int r = 0; r < rows.size(); r++) {
      ObjectNode row = rows.get(r);
      String rowPath = Json.path(rowsPath, r);
      if (isRowCopy(row)) {
        report.warn(rowPath + ": a copy of a repeated row saved by Grafana; left out");
        continue;
      }
      reportRowFields(row, rowPath);
      int rowPx = heightPx(row.get("height"), DEFAULT_ROW_HEIGHT_PX, rowPath + ".height");
      int bandHeight = gridUnits(rowPx);
      boolean collapsed = rowPanels && Json.bool(row, "collapse", false);
      ObjectNode rowPanel = null;
      if (rowPanels) {
        rowPanel = out.addObject();
        rowPanel.put("type", "row");
        rowPanel.put("title", Json.text(row, "title", rowPath));
        rowPanel.put("collapsed", collapsed);
        rowPanel.put("repeat", Json.text(row, "repeat", rowPath));
        rowPanel.set("gridPos", gridPos(0, y, GridItem.COLUMNS, 1));
        sourcePaths.put(rowPanel, rowPath);
        y++;
      }
      ArrayNode members = collapsed ? rowPanel.putArray("panels") : out;
      Band band = new Band(y, bandHeight);
      String panelsPath = Json.path(rowPath, "panels");
      List<ObjectNode> panels = Json.objects(row, "panels", rowPath);
      for (int p = 0; p < panels.size(); p++) {
        ObjectNode panel = panels.get(p);
        String panelPath = Json.path(panelsPath, p);
        if (isPanelCopy(panel)) {
          report.warn(panelPath + ": a copy of a repeated panel saved by Grafana; left out");
          continue;
        }
        int width = width(panel, panelPath);
        int height = gridUnits(heightPx(panel.get("height"), rowPx, panelPath + ".height"));
        int[] place = band.place(width);
        panel.set("gridPos", gridPos(place[0], place[1], width, height));
        band.fill(place[0], place[1], width, height);
        minSpan(panel, panelPath);
        panel.remove(List.of("span", "height"));
        members.add(panel);
        sourcePaths.put(panel, panelPath);
      }
      if (!collapsed) {
        y = band.top + bandHeight;
      }
    }
    return out;
  }

  /**
   * Whether a row is a copy that Grafana 4 made for one value of a repeat and saved with the
   * dashboard; Grafana leaves such copies out on load and makes them again.
   */
  static boolean isRowCopy(ObjectNode row) {
    return !Json.isEmpty(row.get("repeatIteration")) || !Json.isEmpty(row.get("repeatRowId"));
  }

  /** The same for a panel: a copy names the panel it repeats. */
  static boolean isPanelCopy(ObjectNode panel) {
    return !Json.isEmpty(panel.get("repeatPanelId"));
  }

  private void reportRowFields(ObjectNode row, String rowPath) {
    for (Map.Entry<String, JsonNode> field : row.properties()) {
      if (!ROW_FIELDS.contains(field.getKey()) && !Json.isEmpty(field.getValue())) {
        report.unsupported(Json.path(rowPath, field.getKey()), "row field not supported");
      }
    }
    String titleSize = row.path("titleSize").asText("h6");
    if (!titleSize.isEmpty() && !titleSize.equals("h6")) {
      report.unsupported(
          Json.path(rowPath, "titleSize"), "row titles are drawn in one size since Grafana 5");
    }
  }

  /** Columns of 24: twice the whole 12-column span; no span (or 0) is Grafana's default 4. */
  private int width(ObjectNode panel, String panelPath) {
    Double span = Json.optionalNumber(panel, "span", panelPath);
    if (span == null || span == 0) {
      return DEFAULT_SPAN * 2;
    }
    int whole = (int) Math.floor(span);
    if (whole < 1 || whole > OLD_COLUMNS) {
      int fitted = Math.max(1, Math.min(OLD_COLUMNS, whole));
      report.warn(
          panelPath
              + ".span: "
              + BigDecimal.valueOf(span).stripTrailingZeros().toPlainString()
              + " is outside 1..12; taken as "
              + fitted);
      whole = fitted;
    }
    return whole * (GridItem.COLUMNS / OLD_COLUMNS);
  }

  /**
   * {@code minSpan} (the narrowest a repeated panel may get) becomes {@code maxPerRow}: the largest
   * divisor of 24 that still leaves each copy that wide, as Grafana's step 17 does.
   */
  private void minSpan(ObjectNode panel, String panelPath) {
    Double minSpan = Json.optionalNumber(panel, "minSpan", panelPath);
    panel.remove("minSpan");
    if (minSpan == null || minSpan <= 0 || panel.has("maxPerRow")) {
      return;
    }
    double columns = Math.min(GridItem.COLUMNS, minSpan * GridItem.COLUMNS / OLD_COLUMNS);
    double perRow = GridItem.COLUMNS / columns;
    int best = 0;
    for (int divisor = 1; divisor < GridItem.COLUMNS; divisor++) {
      if (GridItem.COLUMNS % divisor == 0 && divisor <= perRow) {
        best = divisor;
      }
    }
    if (best > 0) {
      panel.put("maxPerRow", best);
    }
  }

  /**
   * A height in pixels: a number, or a text such as {@code "250px"} read by its leading digits as
   * JavaScript's parseInt reads it. Unset (absent, null, {@code ""}, 0, false, which JavaScript
   * takes as false) is {@code fallbackPx}.
   */
  private static int heightPx(JsonNode height, int fallbackPx, String path) {
    int px;
    if (height == null || (height.isValueNode() && Json.isEmpty(height))) {
      return fallbackPx;
    } else if (height.isNumber()) {
      px = pixels(height.asLong());
    } else if (height.isTextual()) {
      Matcher digits = LEADING_INTEGER.matcher(height.asText());
      if (!digits.find()) {
        throw new DashboardFormatException(
            path,
            "expected a height in pixels such as 250 or \"250px\", got \""
                + height.asText()
                + "\"");
      }
      px = pixels(Long.parseLong(digits.group(1)));
    } else {
      throw new DashboardFormatException(
          path,
          "expected a height in pixels such as 250 or \"250px\", got " + Json.typeName(height));
    }
    if (px > MAX_HEIGHT_PX) {
      throw new DashboardFormatException(
          path, "a height of more than " + MAX_HEIGHT_PX + " px is not a dashboard row");
    }
    return px;
  }

  /** Grid units for pixels: 38 px each, 90 px at least. */
  private static int gridUnits(int px) {
    return (Math.max(px, MIN_HEIGHT_PX) + PX_PER_GRID_UNIT - 1) / PX_PER_GRID_UNIT;
  }

  private static int pixels(long value) {
    if (value < 0) {
      return 1; // raised to the minimum below, as Grafana raises any small height
    }
    return (int) Math.min(value, MAX_HEIGHT_PX + 1L);
  }

  private static ObjectNode gridPos(int x, int y, int w, int h) {
    ObjectNode pos = Json.NODES.objectNode();
    pos.put("x", x).put("y", y).put("w", w).put("h", h);
    return pos;
  }

  /**
   * One band of a row: how far down each of the 24 columns is filled, counted from the band's top.
   * A panel goes at the left end of the free run that reaches the right edge, if the run is wide
   * enough; else a new band starts below (one band height further down) and it goes at its left.
   */
  private static final class Band {
    private final int height;
    private final int[] filled = new int[GridItem.COLUMNS];
    private int top;

    Band(int top, int height) {
      this.top = top;
      this.height = height;
    }

    /** {x, y} for a panel {@code width} columns wide, y absolute. */
    int[] place(int width) {
      int[] found = freeRun(width);
      if (found == null) {
        top += height;
        Arrays.fill(filled, 0);
        found = freeRun(width);
      }
      return found;
    }

    private int[] freeRun(int width) {
      int end = -1;
      int start = -1;
      for (int column = GridItem.COLUMNS - 1; column >= 0; column--) {
        if (filled[column] >= height) {
          break;
        }
        if (end < 0) {
          end = column;
        } else if (column < GridItem.COLUMNS - 1 && filled[column] <= filled[column + 1]) {
          start = column;
        } else {
          break;
        }
      }
      if (start < 0 || end - start < width - 1) {
        return null;
      }
      int below = 0;
      for (int column = start; column < GridItem.COLUMNS; column++) {
        below = Math.max(below, filled[column]);
      }
      return new int[] {start, top + below};
    }

    void fill(int x, int y, int w, int h) {
      for (int column = x; column < x + w; column++) {
        filled[column] = Math.max(filled[column], y + h - top);
      }
    }
  }
}
