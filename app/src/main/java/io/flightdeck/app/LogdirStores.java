package io.flightdeck.app;

import io.flightdeck.tensorboard.FileHParamsStore;
import io.flightdeck.tensorboard.FileImageStore;
import io.flightdeck.tensorboard.FileTextStore;
import io.flightdeck.tensorboard.SideStores;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The text, image and hparams stores of one TensorBoard logdir under the data directory, opened and
 * closed together by the server's watchers and by {@code flightdeck import tensorboard}.
 */
final class LogdirStores implements AutoCloseable {
  final FileTextStore texts;
  final FileImageStore images;
  final FileHParamsStore hparams;

  private LogdirStores(FileTextStore texts, FileImageStore images, FileHParamsStore hparams) {
    this.texts = texts;
    this.images = images;
    this.hparams = hparams;
  }

  /**
   * Opens the stores; a torn last write cut from one is told to {@code warnings}, since the event
   * files are read again and bring it back.
   *
   * @throws io.flightdeck.tensorboard.StoreFileException if one cannot be opened
   */
  static LogdirStores open(Path dataDir, String logdir, Consumer<String> warnings) {
    FileTextStore texts = FileTextStore.open(dataDir, logdir);
    FileImageStore images = null;
    try {
      images = FileImageStore.open(dataDir, logdir);
      FileHParamsStore hparams = FileHParamsStore.open(dataDir, logdir);
      warnIfCut(warnings, "text", texts.truncatedBytes());
      warnIfCut(warnings, "image", images.truncatedBytes());
      warnIfCut(warnings, "hparams", hparams.truncatedBytes());
      return new LogdirStores(texts, images, hparams);
    } catch (RuntimeException e) {
      texts.close();
      if (images != null) {
        images.close();
      }
      throw e;
    }
  }

  private static void warnIfCut(Consumer<String> warnings, String store, long bytes) {
    if (bytes > 0) {
      warnings.accept(
          "cut "
              + bytes
              + " torn bytes at the end of the "
              + store
              + " store; they are read again");
    }
  }

  /** The stores as the ingester takes them. */
  SideStores sideStores() {
    return new SideStores(texts, images, hparams);
  }

  /** Closes every store, even when one fails; the first failure is thrown. */
  @Override
  public void close() {
    try {
      texts.close();
    } finally {
      try {
        images.close();
      } finally {
        hparams.close();
      }
    }
  }
}
