package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An {@link ImageStore} in one append-only {@link RecordFile} per logdir (format in {@code
 * tensorboard/docs/images.md}). Memory holds only a {@link SampleIndex} with each image's
 * description; bytes are read from the file on demand. Thread-safe by locking the whole store.
 */
public final class FileImageStore extends SampleFileStore<StoredImage> implements ImageStore {
  static final String DIRECTORY = "tensorboard-images";

  private FileImageStore() {}

  /**
   * Opens or creates the store of {@code logdir} under {@code dataDir/tensorboard-images/}, the
   * file named by a hash of the logdir string as the user gave it.
   *
   * @throws StoreFileException if the file cannot be opened or belongs to another logdir
   */
  public static FileImageStore open(Path dataDir, String logdir) {
    FileImageStore store = new FileImageStore();
    store.records =
        RecordFile.open(
            dataDir.resolve(DIRECTORY).resolve(fileName(logdir)),
            ImageRecords.MAGIC,
            ImageRecords.VERSION,
            "image store",
            logdir,
            (body, slot) -> {
              ImageRecords.Decoded d = ImageRecords.decode(body);
              if (d != null) {
                store.add(d.image(), slot);
              }
              return d != null;
            });
    return store;
  }

  static String fileName(String logdir) {
    return RecordFile.fileName("images", logdir, "fdimg");
  }

  @Override
  public synchronized boolean append(String run, ImagePoint p) {
    if (index.contains(run, p.tag(), p.step(), p.wallTimeSeconds(), p.index())) {
      return false;
    }
    RecordFile.Slot slot = records.append(ImageRecords.encode(run, p));
    add(
        new StoredImage(
            run,
            p.tag(),
            p.step(),
            p.wallTimeSeconds(),
            p.index(),
            p.width(),
            p.height(),
            p.colorspace(),
            ImageContentTypes.sniff(p.encoded()),
            p.encoded().length),
        slot);
    return true;
  }

  @Override
  public synchronized List<StoredImage> list(String run, String tag, long minStep, long maxStep) {
    List<StoredImage> out = new ArrayList<>();
    for (SampleIndex.Entry<StoredImage> e : index.current(run, tag, minStep, maxStep)) {
      out.add(e.meta());
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized Optional<byte[]> read(String run, String tag, long step, int imageIndex) {
    for (SampleIndex.Entry<StoredImage> e : index.current(run, tag, step, step)) {
      if (e.index() == imageIndex) {
        ImageRecords.Decoded d = ImageRecords.decode(records.read(e.slot()));
        if (d == null) {
          throw new StoreFileException(
              records.file(), "image does not decode at offset " + e.slot().offset(), null);
        }
        return Optional.of(d.encoded());
      }
    }
    return Optional.empty();
  }

  private void add(StoredImage image, RecordFile.Slot slot) {
    index.add(
        image.run(),
        image.tag(),
        new SampleIndex.Entry<>(image.step(), image.wallTimeSeconds(), image.index(), slot, image));
  }
}
