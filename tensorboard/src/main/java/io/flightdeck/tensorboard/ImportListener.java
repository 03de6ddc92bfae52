package io.flightdeck.tensorboard;

/** Hears how a {@link TensorBoardImport} goes, on the importing thread. */
public interface ImportListener {
  /** Called after each event file. */
  void progress(ImportProgress progress);

  /** A damaged record or an unreadable file, with the file and, where known, the offset. */
  void problem(String message);
}
