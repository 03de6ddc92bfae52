package io.flightdeck.notify;

/** The {@code notifications} section is invalid; {@link #field()} is the path to the bad value. */
public final class NotificationsConfigException extends RuntimeException {
  private final String field;
  private final String reason;

  public NotificationsConfigException(String field, String reason) {
    super(field + ": " + reason);
    this.field = field;
    this.reason = reason;
  }

  /** Such as {@code notifications.route.routes[0].group_wait}. */
  public String field() {
    return field;
  }

  public String reason() {
    return reason;
  }
}
