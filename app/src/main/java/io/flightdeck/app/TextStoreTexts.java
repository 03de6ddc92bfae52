package io.flightdeck.app;

import io.flightdeck.api.TensorBoardText;
import io.flightdeck.api.TensorBoardTexts;
import io.flightdeck.tensorboard.TextSample;
import io.flightdeck.tensorboard.TextStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The API's view of the watched logdirs' text stores; thread-safe as the stores are. */
final class TextStoreTexts extends LogdirStoreView<TextStore> implements TensorBoardTexts {
  TextStoreTexts(Map<String, TextStore> stores) {
    super(stores);
  }

  @Override
  public List<TensorBoardText> fetch(
      String logdir, String run, String tag, long minStep, long maxStep) {
    TextStore store = store(logdir);
    return store == null ? List.of() : convert(logdir, store.fetch(run, tag, minStep, maxStep));
  }

  /** Each store's matches in turn: stores come in logdir order and each orders its own. */
  @Override
  public List<TensorBoardText> search(String needle, int limit) {
    List<TensorBoardText> found = new ArrayList<>();
    for (Map.Entry<String, TextStore> store : stores().entrySet()) {
      if (found.size() >= limit) {
        break;
      }
      found.addAll(convert(store.getKey(), store.getValue().search(needle, limit - found.size())));
    }
    return List.copyOf(found);
  }

  private static List<TensorBoardText> convert(String logdir, List<TextSample> samples) {
    List<TensorBoardText> texts = new ArrayList<>(samples.size());
    for (TextSample s : samples) {
      texts.add(
          new TensorBoardText(logdir, s.run(), s.tag(), s.step(), s.wallTimeSeconds(), s.values()));
    }
    return texts;
  }
}
