package io.flightdeck.dashboards;

/**
 * A text for {@code java.util.regex} that throws {@link Expired} from {@link #charAt} once a
 * deadline has passed, so a backtracking match stops instead of running for hours. The clock is
 * read every 1,024 reads to keep its cost out of ordinary matches.
 */
final class DeadlineText implements CharSequence {
  /** The deadline passed during a match. */
  static final class Expired extends RuntimeException {
    Expired() {
      super("regex deadline passed", null, false, false);
    }
  }

  private final String text;
  private final long deadlineNanos;
  private int reads;

  DeadlineText(String text, long deadlineNanos) {
    this.text = text;
    this.deadlineNanos = deadlineNanos;
  }

  @Override
  public char charAt(int index) {
    if ((++reads & 1023) == 0 && System.nanoTime() - deadlineNanos > 0) {
      throw new Expired();
    }
    return text.charAt(index);
  }

  @Override
  public int length() {
    return text.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new DeadlineText(text.substring(start, end), deadlineNanos);
  }

  @Override
  public String toString() {
    return text;
  }
}
