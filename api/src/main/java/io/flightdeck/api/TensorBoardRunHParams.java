package io.flightdeck.api;

import java.util.List;
import java.util.Map;

/**
 * The hparams plugin's metadata of one run, as the API returns it; what was not written is empty.
 *
 * @param logdir the logdir as the user gave it
 * @param run the run it describes; for PyTorch's {@code add_hparams} sub-run, its parent run
 * @param hparams hyperparameter values ({@code Double}, {@code String} or {@code Boolean}) by name
 * @param groupName the session group
 * @param hparamNames the experiment's declared hyperparameter names
 * @param metricTags the experiment's declared metric tags
 * @param status the session's end status, e.g. {@code STATUS_SUCCESS}
 */
public record TensorBoardRunHParams(
    String logdir,
    String run,
    Map<String, Object> hparams,
    String groupName,
    List<String> hparamNames,
    List<String> metricTags,
    String status) {}
