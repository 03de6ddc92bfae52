package io.flightdeck.app;

import io.flightdeck.tensorboard.SteppedSampleStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The API's view of one kind of store across the watched logdirs: which logdirs, runs and tags
 * there are. Thread-safe as the stores are.
 *
 * @param <S> the kind of store
 */
abstract class LogdirStoreView<S extends SteppedSampleStore> {
  private final TreeMap<String, S> stores;

  /**
   * @param stores the store of each logdir, by the logdir as given; not changed afterwards
   */
  LogdirStoreView(Map<String, S> stores) {
    this.stores = new TreeMap<>(stores);
  }

  public List<String> logdirs() {
    return List.copyOf(stores.keySet());
  }

  public List<String> runs(String logdir) {
    S store = stores.get(logdir);
    return store == null ? List.of() : store.runs();
  }

  public List<String> tags(String logdir, String run) {
    S store = stores.get(logdir);
    return store == null ? List.of() : store.tags(run);
  }

  /** The logdir's store, null for a logdir not watched. */
  S store(String logdir) {
    return stores.get(logdir);
  }

  /** Every store, in logdir order. */
  Map<String, S> stores() {
    return stores;
  }
}
