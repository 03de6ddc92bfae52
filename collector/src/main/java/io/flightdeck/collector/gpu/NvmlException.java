package io.flightdeck.collector.gpu;

/**
 * An NVML call returned something other than {@code NVML_SUCCESS}. Carries the return code so the
 * collector can apply the error policy of nvml.md: "absent" codes omit a series, "lost" codes mark
 * the GPU unhealthy.
 */
public final class NvmlException extends Exception {
  static final int SUCCESS = 0;
  static final int INVALID_ARGUMENT = 2;
  public static final int NOT_SUPPORTED = 3;
  static final int NO_PERMISSION = 4;
  static final int NOT_FOUND = 6;
  static final int INSUFFICIENT_SIZE = 7;
  static final int TIMEOUT = 10;
  static final int FUNCTION_NOT_FOUND = 13;
  public static final int GPU_IS_LOST = 15;
  static final int RESET_REQUIRED = 16;
  static final int LIB_RM_VERSION_MISMATCH = 18;
  static final int NO_DATA = 21;
  static final int ARGUMENT_VERSION_MISMATCH = 25;
  static final int GPU_NOT_FOUND = 28;

  private final String call;
  private final int code;
  private final String description;

  /**
   * {@code call} names the NVML function, {@code code} is its {@code nvmlReturn_t}; public so that
   * a simulated {@link Nvml} (the demo's) can fail as the driver would.
   */
  public NvmlException(String call, int code, String description) {
    // No stack trace: the call and code say what failed, and fields a GPU lacks fail on every
    // collection, where filling in a trace would cost more than the call itself.
    super(null, null, false, false);
    this.call = call;
    this.code = code;
    this.description = description;
  }

  /**
   * Built when asked for: most of these exceptions are "absent" codes that the collector drops
   * without reading the message, a few per GPU and collection.
   */
  @Override
  public String getMessage() {
    return "[call=" + call + "] [code=" + code + "] " + description;
  }

  /** The {@code nvmlReturn_t} value. */
  public int code() {
    return code;
  }

  /** The device or driver simply does not offer this reading: omit the series, it is no fault. */
  public boolean absent() {
    return code == NOT_SUPPORTED
        || code == NO_PERMISSION
        || code == NOT_FOUND
        || code == NO_DATA
        || code == FUNCTION_NOT_FOUND;
  }

  /** The GPU is gone or unusable until reset: stop polling it and report it unhealthy. */
  public boolean lost() {
    return code == GPU_IS_LOST || code == RESET_REQUIRED || code == GPU_NOT_FOUND;
  }
}
