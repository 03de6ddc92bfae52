package io.flightdeck.training;

/**
 * What a run's own metadata declares, outside the time series: the seam through which the app gives
 * the catalog TensorBoard hparams ({@code max_steps}, the session's end status). Thread-safe.
 */
@FunctionalInterface
public interface RunHParams {
  /** A source that knows nothing. */
  RunHParams NONE = run -> Declared.NOTHING;

  /** What is declared for {@code run}; {@link Declared#NOTHING} when nothing is known. */
  Declared declared(String run);

  /**
   * @param maxSteps the planned number of steps, null when unknown
   * @param status the session's end status as TensorBoard writes it ({@code STATUS_SUCCESS}, {@code
   *     STATUS_FAILURE}, ...), empty when unknown or still running
   */
  record Declared(Double maxSteps, String status) {
    public static final Declared NOTHING = new Declared(null, "");

    public Declared {
      status = status == null ? "" : status;
    }
  }
}
