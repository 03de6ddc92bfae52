package io.flightdeck.tensorboard;

import java.util.List;
import java.util.Map;

/**
 * Run metadata from the {@code hparams} plugin, which travels in the summary metadata of values
 * that carry no data. PyTorch's {@code add_hparams} writes all three kinds into a sub-run (see
 * {@link TensorBoardRun#hparamsParent()}); TF2's hparams API writes them into the run itself.
 *
 * @param hparams session start: hyperparameter values as {@code Double}, {@code String} or {@code
 *     Boolean} (null, list and struct values are left out)
 * @param hparamNames experiment: the declared hyperparameter names
 * @param metricTags experiment: the tags of the declared metrics (their group, a run sub-directory
 *     where set, is not kept)
 * @param groupName session start: the session group, empty when not set
 * @param status session end: the status name, e.g. {@code STATUS_SUCCESS}; empty otherwise
 * @param timeSeconds start time, experiment creation time or end time, 0 when not set
 */
public record HParamsPoint(
    String tag,
    long step,
    double wallTimeSeconds,
    Kind kind,
    Map<String, Object> hparams,
    List<String> hparamNames,
    List<String> metricTags,
    String groupName,
    String status,
    double timeSeconds)
    implements SummaryPoint {

  /** Which of the plugin's three messages this came from. */
  public enum Kind {
    EXPERIMENT,
    SESSION_START,
    SESSION_END
  }

  public HParamsPoint {
    hparams = Map.copyOf(hparams);
    hparamNames = List.copyOf(hparamNames);
    metricTags = List.copyOf(metricTags);
  }
}
