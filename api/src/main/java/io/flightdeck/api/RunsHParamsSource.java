package io.flightdeck.api;

import io.flightdeck.training.RunHParams;
import java.util.Map;

/**
 * What TensorBoard hparams declare about a run, for the run catalog: {@code max_steps} (a
 * hyperparameter named {@code max_steps} or ending in {@code max_steps}) and the session's end
 * status. A run name present in several logdirs takes the first logdir's values. Thread-safe as the
 * hparams stores are.
 */
public final class RunsHParamsSource implements RunHParams {
  private final TensorBoardHParams hparams;

  public RunsHParamsSource(TensorBoardHParams hparams) {
    this.hparams = hparams;
  }

  @Override
  public Declared declared(String run) {
    for (String logdir : hparams.logdirs()) {
      for (TensorBoardRunHParams runHParams : hparams.runs(logdir)) {
        if (runHParams.run().equals(run)) {
          return new Declared(maxSteps(runHParams.hparams()), runHParams.status());
        }
      }
    }
    return Declared.NOTHING;
  }

  private static Double maxSteps(Map<String, Object> values) {
    Object exact = values.get("max_steps");
    if (exact instanceof Number number) {
      return number.doubleValue();
    }
    for (Map.Entry<String, Object> entry : values.entrySet()) {
      if (entry.getKey().endsWith("max_steps") && entry.getValue() instanceof Number number) {
        return number.doubleValue();
      }
    }
    return null;
  }
}
