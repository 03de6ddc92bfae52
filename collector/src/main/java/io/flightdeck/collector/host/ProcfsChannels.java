package io.flightdeck.collector.host;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Files of a procfs mount, opened once and read again from offset 0 at every collection: the kernel
 * generates a procfs file anew for a read from the start, so an open file serves every collection,
 * and opening one (a path walk in procfs, a descriptor and its cleaner) was about a third of
 * reading the host files in a profile of the agent. Files elsewhere, such as the fixture trees of
 * tests, are not kept: a file replaced there would be read stale. Thread-safe.
 */
final class ProcfsChannels {
  private ProcfsChannels() {}

  /** The open channel of each procfs file read so far. */
  private static final Map<Path, FileChannel> OPEN = new ConcurrentHashMap<>();

  /** Files found not to be on procfs, which are read through a new stream each time. */
  private static final Set<Path> ELSEWHERE = ConcurrentHashMap.newKeySet();

  /**
   * The open channel of {@code file} if it is on procfs, else null (also when it does not exist, so
   * that the caller's own open reports that as usual).
   */
  static FileChannel channel(Path file) throws IOException {
    FileChannel channel = OPEN.get(file);
    if (channel != null || ELSEWHERE.contains(file)) {
      return channel;
    }
    FileStore store;
    try {
      store = Files.getFileStore(file);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!store.type().equals("proc")) {
      ELSEWHERE.add(file);
      return null;
    }
    channel = FileChannel.open(file, StandardOpenOption.READ);
    FileChannel raced = OPEN.putIfAbsent(file, channel);
    if (raced != null) {
      channel.close();
      return raced;
    }
    return channel;
  }

  /** Closes and forgets {@code channel} after a failed read: the next read opens the file anew. */
  static void forget(Path file, FileChannel channel) {
    OPEN.remove(file, channel);
    try {
      channel.close();
    } catch (IOException e) {
      // Forgetting it is all that matters.
    }
  }
}
