package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link TextStore} in one append-only file per logdir (format in {@code
 * tensorboard/docs/text-store.md}). Memory holds only an index (run, tag, step, wall time, file
 * offset per sample); values are read from the file on demand.
 *
 * <p>Opening checks every record. The file ends at the first record that is incomplete or fails its
 * CRC and is cut there: that is a write torn by a crash, and what it held is written again when the
 * logdir is re-read, because the event files stay the source of truth. Thread-safe by locking the
 * whole store: text samples are few and small next to scalars.
 */
public final class FileTextStore implements TextStore {
  static final String DIRECTORY = "tensorboard-text";

  private final Path file;
  private final FileChannel channel;
  private final Map<String, Map<String, List<Entry>>> index = new TreeMap<>();
  private final Set<Key> keys = new HashSet<>();
  private long truncatedBytes;
  private long end;
  private boolean dirty;

  private record Entry(long step, long offset, int length) {}

  private record Key(String run, String tag, long step, long wallTimeBits) {}

  private FileTextStore(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
  }

  /**
   * Opens or creates the store of {@code logdir} under {@code dataDir/tensorboard-text/}, the file
   * named by a hash of the logdir string as the user gave it.
   *
   * @throws TextStoreException if the file cannot be opened or belongs to another logdir
   */
  public static FileTextStore open(Path dataDir, String logdir) {
    Path file = dataDir.resolve(DIRECTORY).resolve(fileName(logdir));
    try {
      Files.createDirectories(file.getParent());
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileTextStore store = new FileTextStore(file, channel);
      try {
        store.load(logdir);
        return store;
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    } catch (IOException e) {
      throw new TextStoreException(file, "cannot open text store", e);
    }
  }

  static String fileName(String logdir) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(logdir.getBytes(StandardCharsets.UTF_8));
      return "text-" + HexFormat.of().formatHex(hash, 0, 8) + ".fdtext";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private void load(String logdir) throws IOException {
    long size = channel.size();
    byte[] header = TextRecords.header(logdir);
    if (size == 0) {
      write(channel, header, 0);
      channel.force(true);
      end = header.length;
      return;
    }
    byte[] prefix = read(channel, 0, TextRecords.HEADER_PREFIX_BYTES);
    int nameLength = prefix == null ? -1 : TextRecords.logdirLength(prefix);
    byte[] found =
        nameLength < 0 ? null : read(channel, 0, TextRecords.HEADER_PREFIX_BYTES + nameLength + 4);
    String owner = found == null ? null : TextRecords.logdir(found);
    if (owner == null) {
      throw new TextStoreException(file, "not a text store or damaged header", null);
    }
    if (!owner.equals(logdir)) {
      throw new TextStoreException(
          file, "text store belongs to logdir " + owner + ", not " + logdir, null);
    }
    long at = found.length;
    while (true) {
      byte[] record = readRecord(at, size);
      TextSample sample = record == null ? null : TextRecords.decode(record);
      if (sample == null) {
        break;
      }
      index(sample, at, record.length);
      at += record.length;
    }
    end = at;
    truncatedBytes = size - at;
    if (truncatedBytes > 0) {
      channel.truncate(at);
      channel.force(true);
    }
  }

  /** Bytes cut from the end on open (a torn last write); for the opener to log. */
  public long truncatedBytes() {
    return truncatedBytes;
  }

  @Override
  public synchronized boolean append(String run, TextPoint point) {
    Key key =
        new Key(run, point.tag(), point.step(), Double.doubleToLongBits(point.wallTimeSeconds()));
    if (keys.contains(key)) {
      return false;
    }
    byte[] record = TextRecords.frame(run, point);
    try {
      write(channel, record, end);
    } catch (IOException e) {
      throw new TextStoreException(file, "cannot append text sample at offset " + end, e);
    }
    keys.add(key);
    entries(run, point.tag()).add(new Entry(point.step(), end, record.length));
    end += record.length;
    dirty = true;
    return true;
  }

  @Override
  public synchronized void sync() {
    if (!dirty) {
      return;
    }
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new TextStoreException(file, "cannot sync text store", e);
    }
    dirty = false;
  }

  @Override
  public synchronized List<String> runs() {
    return List.copyOf(index.keySet());
  }

  @Override
  public synchronized List<String> tags(String run) {
    return List.copyOf(index.getOrDefault(run, Map.of()).keySet());
  }

  @Override
  public synchronized List<TextSample> fetch(String run, String tag, long minStep, long maxStep) {
    List<TextSample> out = new ArrayList<>();
    for (Entry e : current(index.getOrDefault(run, Map.of()).getOrDefault(tag, List.of()))) {
      if (e.step >= minStep && e.step <= maxStep) {
        out.add(sample(e));
      }
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized List<TextSample> search(String needle, int limit) {
    List<TextSample> out = new ArrayList<>();
    for (Map<String, List<Entry>> tags : index.values()) {
      for (List<Entry> entries : tags.values()) {
        for (Entry e : current(entries)) {
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

  @Override
  public synchronized void close() {
    try {
      sync();
    } finally {
      try {
        channel.close();
      } catch (IOException e) {
        throw new TextStoreException(file, "cannot close text store", e);
      }
    }
  }

  /**
   * The entries TensorBoard would keep: each one evicts the earlier ones with a step at or after
   * its own, so what is left is strictly increasing in step and eviction pops from the end.
   */
  private static List<Entry> current(List<Entry> entries) {
    List<Entry> kept = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      while (!kept.isEmpty() && kept.getLast().step >= e.step) {
        kept.removeLast();
      }
      kept.add(e);
    }
    return kept;
  }

  private void index(TextSample s, long offset, int length) {
    keys.add(new Key(s.run(), s.tag(), s.step(), Double.doubleToLongBits(s.wallTimeSeconds())));
    entries(s.run(), s.tag()).add(new Entry(s.step(), offset, length));
  }

  private List<Entry> entries(String run, String tag) {
    return index
        .computeIfAbsent(run, r -> new TreeMap<>())
        .computeIfAbsent(tag, t -> new ArrayList<>());
  }

  private TextSample sample(Entry e) {
    try {
      byte[] record = read(channel, e.offset, e.length);
      TextSample s = record == null ? null : TextRecords.decode(record);
      if (s == null) {
        throw new TextStoreException(
            file, "text sample changed on disk at offset " + e.offset, null);
      }
      return s;
    } catch (IOException ex) {
      throw new TextStoreException(file, "cannot read text sample at offset " + e.offset, ex);
    }
  }

  /** The framed record at {@code at}, or null if it does not fit in {@code size} bytes. */
  private byte[] readRecord(long at, long size) throws IOException {
    if (size - at < TextRecords.FRAME_BYTES) {
      return null;
    }
    int body = ByteBuffer.wrap(read(channel, at, 4)).getInt();
    if (body < 0 || body > TextRecords.MAX_BODY_BYTES || size - at < body + 8L) {
      return null;
    }
    return read(channel, at, body + TextRecords.FRAME_BYTES);
  }

  private static void write(FileChannel channel, byte[] bytes, long position) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      channel.write(b, position + b.position());
    }
  }

  /** Exactly {@code length} bytes at {@code position}, or null if the file ends first. */
  private static byte[] read(FileChannel channel, long position, int length) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(length);
    while (b.hasRemaining()) {
      if (channel.read(b, position + b.position()) < 0) {
        return null;
      }
    }
    return b.array();
  }
}
