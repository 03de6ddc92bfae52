package io.flightdeck.app;

import io.flightdeck.api.TensorBoardHParams;
import io.flightdeck.api.TensorBoardRunHParams;
import io.flightdeck.tensorboard.HParamsStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The API's view of the watched logdirs' hparams stores; thread-safe as the stores are. */
final class HParamsStoreHParams implements TensorBoardHParams {
  private final TreeMap<String, HParamsStore> stores;

  /**
   * @param stores the store of each logdir, by the logdir as given; not changed afterwards
   */
  HParamsStoreHParams(Map<String, HParamsStore> stores) {
    this.stores = new TreeMap<>(stores);
  }

  @Override
  public List<String> logdirs() {
    return List.copyOf(stores.keySet());
  }

  @Override
  public List<TensorBoardRunHParams> runs(String logdir) {
    HParamsStore store = stores.get(logdir);
    if (store == null) {
      return List.of();
    }
    return store.runs().stream()
        .map(
            h ->
                new TensorBoardRunHParams(
                    logdir,
                    h.run(),
                    h.hparams(),
                    h.groupName(),
                    h.hparamNames(),
                    h.metricTags(),
                    h.status()))
        .toList();
  }
}
