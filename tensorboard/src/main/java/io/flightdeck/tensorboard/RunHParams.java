package io.flightdeck.tensorboard;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hparams plugin's metadata of one run, merged from its three messages; what is not written yet
 * is empty.
 *
 * @param run the run it describes: for PyTorch's {@code add_hparams} sub-run, its parent run
 * @param hparams session start: hyperparameter values ({@code Double}, {@code String} or {@code
 *     Boolean}) by name, sorted
 * @param groupName session start: the session group, empty when not set
 * @param hparamNames experiment: the declared hyperparameter names
 * @param metricTags experiment: the tags of the declared metrics
 * @param status session end: the status name, e.g. {@code STATUS_SUCCESS}; empty otherwise
 */
public record RunHParams(
    String run,
    Map<String, Object> hparams,
    String groupName,
    List<String> hparamNames,
    List<String> metricTags,
    String status) {
  public RunHParams {
    hparams = Collections.unmodifiableMap(new TreeMap<>(hparams));
    hparamNames = List.copyOf(hparamNames);
    metricTags = List.copyOf(metricTags);
  }

  /** A run with no hparams metadata yet. */
  public static RunHParams empty(String run) {
    return new RunHParams(run, Map.of(), "", List.of(), List.of(), "");
  }

  /** This metadata with the parts {@code point} carries replaced: the latest write wins. */
  public RunHParams with(HParamsPoint point) {
    return switch (point.kind()) {
      case EXPERIMENT ->
          new RunHParams(run, hparams, groupName, point.hparamNames(), point.metricTags(), status);
      case SESSION_START ->
          new RunHParams(run, point.hparams(), point.groupName(), hparamNames, metricTags, status);
      case SESSION_END ->
          new RunHParams(run, hparams, groupName, hparamNames, metricTags, point.status());
    };
  }
}
