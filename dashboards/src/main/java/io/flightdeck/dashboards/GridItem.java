package io.flightdeck.dashboards;

/**
 * One panel's place in a 24-column grid: {@code x} and {@code w} in columns, {@code y} and {@code
 * h} in rows of about 30 px. {@code y} counts from the top of its section (below the row's header
 * when the section is a row).
 */
public record GridItem(String panel, int x, int y, int w, int h) {
  public static final int COLUMNS = 24;

  int bottom() {
    return y + h;
  }

  GridItem atY(int newY) {
    return new GridItem(panel, x, newY, w, h);
  }
}
