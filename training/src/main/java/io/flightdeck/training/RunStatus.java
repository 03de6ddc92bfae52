package io.flightdeck.training;

/**
 * What a run is doing now. The rules, applied in this order by {@link RunCatalog}:
 *
 * <ol>
 *   <li>{@code finished}: the step reached {@code max_steps}, or the source said the run ended (a
 *       TensorBoard hparams session status of success, or the end-of-training summary {@code
 *       train/train_runtime} that Hugging Face's Trainer and ms-swift write).
 *   <li>{@code crashed}: no sample of any training series for longer than {@link
 *       RunCatalogOptions#silence} of the step series' usual sample interval (at least {@link
 *       RunCatalogOptions#silenceFloor}), or the source reported a failed session.
 *   <li>{@code stalled}: samples still arrive, but the step has not changed for longer than {@link
 *       RunCatalogOptions#stallFactor} times the median time between step changes (at least {@link
 *       RunCatalogOptions#stallFloor}).
 *   <li>{@code running}: otherwise.
 * </ol>
 */
public enum RunStatus {
  RUNNING,
  FINISHED,
  STALLED,
  CRASHED;

  /** The name the API writes. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
