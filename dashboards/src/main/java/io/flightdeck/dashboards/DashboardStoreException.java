package io.flightdeck.dashboards;

/** A store operation refused or failed: what, and which dashboard or file. */
public final class DashboardStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why: the client asked for something wrong, for something absent, or the disk failed. */
  public enum Reason {
    BAD_REQUEST,
    NOT_FOUND,
    IO
  }

  private final Reason reason;

  public DashboardStoreException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public DashboardStoreException(String message, Throwable cause) {
    super(message, cause);
    this.reason = Reason.IO;
  }

  public Reason reason() {
    return reason;
  }

  static DashboardStoreException notFound(String uid) {
    return new DashboardStoreException(Reason.NOT_FOUND, "dashboard \"" + uid + "\" not found");
  }
}
