package io.flightdeck.tensorboard;

import java.util.List;

/**
 * What the text and image stores share: stepped samples in a {@link RecordFile}, found through a
 * {@link SampleIndex}. Thread-safe by locking the whole store.
 *
 * @param <M> what an index entry keeps besides its place in the file
 */
abstract class SampleFileStore<M> {
  final SampleIndex<M> index = new SampleIndex<>();

  /** Set once by the subclass's {@code open}, which fills the index from the file. */
  RecordFile records;

  /** Bytes cut from the end on open (a torn last write); for the opener to log. */
  public long truncatedBytes() {
    return records.truncatedBytes();
  }

  public synchronized void sync() {
    records.sync();
  }

  public synchronized List<String> runs() {
    return index.runs();
  }

  public synchronized List<String> tags(String run) {
    return index.tags(run);
  }

  public synchronized void close() {
    records.close();
  }
}
