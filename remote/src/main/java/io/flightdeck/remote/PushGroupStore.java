package io.flightdeck.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pushed groups on disk, in one file that every change replaces whole: written to a temporary
 * file, fsynced, renamed over the old one and the directory fsynced, so that after a crash the file
 * is either the old or the new state, never a mix. Pushes are rare and groups small, which makes
 * rewriting everything cheaper to get right than an append log. The format is in {@code
 * remote/docs/push-store.md}. One process at a time; not thread-safe (the receiver serializes).
 */
public final class PushGroupStore {
  private static final Logger log = LoggerFactory.getLogger(PushGroupStore.class);
  static final String FILE_NAME = "groups.fdpg";

  private final Path dir;
  private final Path file;
  private final Path temporary;
  private final List<PushGroup> loaded;
  private final Optional<String> loadProblem;

  private PushGroupStore(Path dir, List<PushGroup> loaded, Optional<String> loadProblem) {
    this.dir = dir;
    this.file = dir.resolve(FILE_NAME);
    this.temporary = dir.resolve(FILE_NAME + ".tmp");
    this.loaded = loaded;
    this.loadProblem = loadProblem;
  }

  /**
   * Opens the store in {@code dir}, creating it if needed, and reads the groups kept there. A
   * damaged file does not stop the start: the groups before the damage are kept, one warning names
   * the file, the offset and the reason, and the file is copied aside to {@code *.corrupt} before
   * the next change overwrites it.
   *
   * @throws IOException when the directory cannot be created or the file cannot be read at all
   */
  public static PushGroupStore open(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE_NAME);
    // A temporary file left by a crash is a change that was never acknowledged.
    Files.deleteIfExists(dir.resolve(FILE_NAME + ".tmp"));
    if (!Files.exists(file)) {
      return new PushGroupStore(dir, List.of(), Optional.empty());
    }
    PushGroupFormat.Decoded decoded = PushGroupFormat.decode(Files.readAllBytes(file));
    if (decoded.problem() == null) {
      return new PushGroupStore(dir, List.copyOf(decoded.groups()), Optional.empty());
    }
    Path aside = dir.resolve(FILE_NAME + ".corrupt");
    Files.copy(file, aside, StandardCopyOption.REPLACE_EXISTING);
    String problem =
        "push group file "
            + file
            + " is damaged at "
            + decoded.problem()
            + "; starting with the "
            + decoded.groups().size()
            + " groups before it (the file is kept as "
            + aside
            + ")";
    log.warn(problem);
    return new PushGroupStore(dir, List.copyOf(decoded.groups()), Optional.of(problem));
  }

  /** The groups read by {@link #open(Path)}. */
  List<PushGroup> loaded() {
    return loaded;
  }

  /** Why {@link #open(Path)} could not read the whole file, if it could not. */
  Optional<String> loadProblem() {
    return loadProblem;
  }

  /**
   * Replaces the stored groups with {@code groups}; durable when it returns.
   *
   * @throws IOException when the change could not be made durable; the old file is then intact
   */
  void replaceAll(Collection<PushGroup> groups) throws IOException {
    ByteBuffer bytes = ByteBuffer.wrap(PushGroupFormat.encode(groups));
    try (FileChannel out =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
      out.force(true);
    }
    Files.move(
        temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    // The rename itself is durable only once the directory is synced.
    try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
      directory.force(true);
    }
  }
}
