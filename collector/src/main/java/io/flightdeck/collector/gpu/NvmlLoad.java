package io.flightdeck.collector.gpu;

/**
 * The outcome of loading and initialising NVML: a ready {@link Nvml}, or one line saying why there
 * is none (no driver on a CI machine is normal, not an error).
 */
public sealed interface NvmlLoad {

  /** NVML is loaded and {@link Nvml#init()} succeeded; the holder must call shutdown. */
  record Available(Nvml nvml) implements NvmlLoad {}

  /** {@code reason} reads {@code NVML not available: <cause>}. */
  record Unavailable(String reason) implements NvmlLoad {}

  static Unavailable unavailable(String cause) {
    return new Unavailable("NVML not available: " + cause);
  }

  /** Initialises {@code nvml}, turning a failed init into {@link Unavailable}. */
  static NvmlLoad initialise(Nvml nvml) {
    try {
      nvml.init();
      return new Available(nvml);
    } catch (NvmlException e) {
      return unavailable(
          "nvmlInit_v2 failed: " + nvml.errorString(e.code()) + " (" + e.code() + ")");
    }
  }
}
