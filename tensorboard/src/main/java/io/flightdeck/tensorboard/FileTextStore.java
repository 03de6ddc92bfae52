package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link TextStore} in one append-only {@link RecordFile} per logdir (format in {@code
 * tensorboard/docs/text-store.md}). Memory holds only a {@link SampleIndex}; values are read from
 * the file on demand. Thread-safe by locking the whole store: text samples are few and small next
 * to scalars.
 */
public final class FileTextStore extends SampleFileStore<Void> implements TextStore {
  static final String DIRECTORY = "tensorboard-text";

  private FileTextStore() {}

  /**
   * Opens or creates the store of {@code logdir} under {@code dataDir/tensorboard-text/}, the file
   * named by a hash of the logdir string as the user gave it.
   *
   * @throws StoreFileException if the file cannot be opened or belongs to another logdir
   */
  public static FileTextStore open(Path dataDir, String logdir) {
    FileTextStore store = new FileTextStore();
    store.records =
        RecordFile.open(
            dataDir.resolve(DIRECTORY).resolve(fileName(logdir)),
            TextRecords.MAGIC,
            TextRecords.VERSION,
            "text store",
            logdir,
            (body, slot) -> {
              TextSample s = TextRecords.decode(body);
              if (s != null) {
                store.index.add(
                    s.run(),
                    s.tag(),
                    new SampleIndex.Entry<>(s.step(), s.wallTimeSeconds(), 0, slot, null));
              }
              return s != null;
            });
    return store;
  }

  static String fileName(String logdir) {
    return RecordFile.fileName("text", logdir, "fdtext");
  }

  @Override
  public synchronized boolean append(String run, TextPoint point) {
    if (index.contains(run, point.tag(), point.step(), point.wallTimeSeconds(), 0)) {
      return false;
    }
    RecordFile.Slot slot = records.append(TextRecords.encode(run, point));
    index.add(
        run,
        point.tag(),
        new SampleIndex.Entry<>(point.step(), point.wallTimeSeconds(), 0, slot, null));
    return true;
  }

  @Override
  public synchronized List<TextSample> fetch(String run, String tag, long minStep, long maxStep) {
    List<TextSample> out = new ArrayList<>();
    for (SampleIndex.Entry<Void> e : index.current(run, tag, minStep, maxStep)) {
      out.add(sample(e));
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized List<TextSample> search(String needle, int limit) {
    List<TextSample> out = new ArrayList<>();
    for (String run : index.runs()) {
      for (String tag : index.tags(run)) {
        for (SampleIndex.Entry<Void> e : index.current(run, tag, Long.MIN_VALUE, Long.MAX_VALUE)) {
          if (out.size() >= limit) {
            return List.copyOf(out);
          }
          TextSample s = sample(e);
          if (s.values().stream().anyMatch(v -> v.contains(needle))) {
            out.add(s);
          }
        }
      }
    }
    return List.copyOf(out);
  }

  private TextSample sample(SampleIndex.Entry<Void> e) {
    TextSample s = TextRecords.decode(records.read(e.slot()));
    if (s == null) {
      throw new StoreFileException(
          records.file(), "text sample does not decode at offset " + e.slot().offset(), null);
    }
    return s;
  }
}
