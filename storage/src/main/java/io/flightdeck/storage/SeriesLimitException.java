package io.flightdeck.storage;

/** A new series refused because the active-series cap, overall or per metric, is reached. */
public final class SeriesLimitException extends SampleRejectedException {
  private static final long serialVersionUID = 1L;

  public SeriesLimitException(String message) {
    super(message);
  }

  @Override
  public String reason() {
    return "series_limit";
  }
}
