package io.flightdeck.app;

import io.flightdeck.api.TensorBoardImage;
import io.flightdeck.api.TensorBoardImageBytes;
import io.flightdeck.api.TensorBoardImages;
import io.flightdeck.tensorboard.ImageContentTypes;
import io.flightdeck.tensorboard.ImageStore;
import io.flightdeck.tensorboard.StoredImage;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The API's view of the watched logdirs' image stores; thread-safe as the stores are. */
final class ImageStoreImages extends LogdirStoreView<ImageStore> implements TensorBoardImages {
  ImageStoreImages(Map<String, ImageStore> stores) {
    super(stores);
  }

  @Override
  public List<TensorBoardImage> list(
      String logdir, String run, String tag, long minStep, long maxStep) {
    ImageStore store = store(logdir);
    if (store == null) {
      return List.of();
    }
    return store.list(run, tag, minStep, maxStep).stream().map(i -> image(logdir, i)).toList();
  }

  @Override
  public Optional<TensorBoardImageBytes> read(
      String logdir, String run, String tag, long step, int index) {
    ImageStore store = store(logdir);
    return store == null
        ? Optional.empty()
        : store
            .read(run, tag, step, index)
            .map(b -> new TensorBoardImageBytes(ImageContentTypes.sniff(b), b));
  }

  private static TensorBoardImage image(String logdir, StoredImage i) {
    return new TensorBoardImage(
        logdir,
        i.run(),
        i.tag(),
        i.step(),
        i.wallTimeSeconds(),
        i.index(),
        i.width(),
        i.height(),
        i.contentType(),
        i.byteLength());
  }
}
