package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@link HParamsStore} in one append-only {@link RecordFile} per logdir (format in {@code
 * tensorboard/docs/images.md}): each change appends the run's whole merged metadata, and on open
 * the last record of each run wins. The metadata is small and changes a few times per run, so
 * memory holds all of it. Thread-safe by locking the whole store.
 */
public final class FileHParamsStore implements HParamsStore {
  static final String DIRECTORY = "tensorboard-hparams";

  private final Map<String, RunHParams> runs = new TreeMap<>();
  private RecordFile records;

  private FileHParamsStore() {}

  /**
   * Opens or creates the store of {@code logdir} under {@code dataDir/tensorboard-hparams/}, the
   * file named by a hash of the logdir string as the user gave it.
   *
   * @throws StoreFileException if the file cannot be opened or belongs to another logdir
   */
  public static FileHParamsStore open(Path dataDir, String logdir) {
    FileHParamsStore store = new FileHParamsStore();
    store.records =
        RecordFile.open(
            dataDir.resolve(DIRECTORY).resolve(fileName(logdir)),
            HParamsRecords.MAGIC,
            HParamsRecords.VERSION,
            "hparams store",
            logdir,
            (body, slot) -> {
              RunHParams h = HParamsRecords.decode(body);
              if (h != null) {
                store.runs.put(h.run(), h);
              }
              return h != null;
            });
    return store;
  }

  static String fileName(String logdir) {
    return RecordFile.fileName("hparams", logdir, "fdhp");
  }

  /** Bytes cut from the end on open (a torn last write); for the opener to log. */
  public long truncatedBytes() {
    return records.truncatedBytes();
  }

  @Override
  public synchronized boolean append(String run, HParamsPoint point) {
    RunHParams before = runs.getOrDefault(run, RunHParams.empty(run));
    RunHParams after = before.with(point);
    if (after.equals(before)) {
      return false;
    }
    records.append(HParamsRecords.encode(after));
    runs.put(run, after);
    return true;
  }

  @Override
  public synchronized void sync() {
    records.sync();
  }

  @Override
  public synchronized List<RunHParams> runs() {
    return List.copyOf(runs.values());
  }

  @Override
  public synchronized void close() {
    records.close();
  }
}
