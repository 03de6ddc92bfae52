package io.flightdeck.tensorboard;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * An append-only file of CRC-framed records behind a header naming its logdir, the layout shared by
 * the text, image and hparams stores ({@code tensorboard/docs/text-store.md}). Big-endian.
 *
 * <p>Opening checks every record. The file ends at the first record that is incomplete, fails its
 * CRC or does not decode, and is cut there: that is a write torn by a crash, and what it held is
 * written again when the logdir is re-read, because the event files stay the source of truth. Not
 * thread-safe: each store locks around it.
 */
final class RecordFile implements Closeable {
  /** Magic, version and the logdir's length. */
  private static final int HEADER_PREFIX_BYTES = 4 + 1 + 4;

  /** The length before a record's body and the CRC after it. */
  static final int FRAME_BYTES = 8;

  /** A sane cap on one record, so a damaged length never makes the reader allocate gigabytes. */
  static final int MAX_BODY_BYTES = 64 << 20;

  private static final int MAX_LOGDIR_BYTES = 64 << 10;

  /**
   * Appended records wait in memory up to this many bytes and go to the file in one write: a write
   * per text sample cost an import a system call each (0.1 s of a 1 GB import's storing thread).
   */
  static final int WRITE_BUFFER_BYTES = 64 << 10;

  private final Path file;
  private final String what;
  private final FileChannel channel;
  private long truncatedBytes;
  private long end;
  private boolean dirty;

  /** Framed records appended after {@link #written}, not yet in the file. */
  private final ByteBuffer unwritten = ByteBuffer.allocate(WRITE_BUFFER_BYTES);

  private long written;

  /** Where a framed record lies in the file. */
  record Slot(long offset, int length) {}

  /** Hears each record found on open; false if its body does not decode, which ends the file. */
  interface Loader {
    boolean load(ByteBuffer body, Slot slot);
  }

  private RecordFile(Path file, String what, FileChannel channel) {
    this.file = file;
    this.what = what;
    this.channel = channel;
  }

  /**
   * Opens or creates {@code file} (see {@link #fileName}) and hands every intact record to {@code
   * loader}.
   *
   * @param magic four bytes and a version that say which store the file is
   * @param what the store's name in error messages, e.g. {@code "text store"}
   * @throws StoreFileException if the file cannot be opened or belongs to another logdir
   */
  static RecordFile open(
      Path file, byte[] magic, byte version, String what, String logdir, Loader loader) {
    try {
      Files.createDirectories(file.getParent());
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      RecordFile records = new RecordFile(file, what, channel);
      try {
        records.load(magic, version, logdir, loader);
        return records;
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    } catch (IOException e) {
      throw new StoreFileException(file, "cannot open " + what, e);
    }
  }

  /** {@code prefix-<16 hex digits of the logdir's SHA-256>.extension}. */
  static String fileName(String prefix, String logdir, String extension) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(logdir.getBytes(StandardCharsets.UTF_8));
      return prefix + "-" + HexFormat.of().formatHex(hash, 0, 8) + "." + extension;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private void load(byte[] magic, byte version, String logdir, Loader loader) throws IOException {
    long size = channel.size();
    if (size == 0) {
      byte[] header = header(magic, version, logdir);
      write(header, header.length, 0);
      channel.force(true);
      end = header.length;
      written = end;
      return;
    }
    String owner = owner(magic, version);
    if (owner == null) {
      throw new StoreFileException(file, what + " header missing or damaged", null);
    }
    if (!owner.equals(logdir)) {
      throw new StoreFileException(
          file, what + " belongs to logdir " + owner + ", not " + logdir, null);
    }
    long at = HEADER_PREFIX_BYTES + owner.getBytes(StandardCharsets.UTF_8).length + 4;
    while (true) {
      byte[] record = readRecord(at, size);
      ByteBuffer body = record == null ? null : body(record);
      Slot slot = record == null ? null : new Slot(at, record.length);
      if (body == null || !loader.load(body, slot)) {
        break;
      }
      at += record.length;
    }
    end = at;
    written = at;
    truncatedBytes = size - at;
    if (truncatedBytes > 0) {
      channel.truncate(at);
      channel.force(true);
    }
  }

  private static byte[] header(byte[] magic, byte version, String logdir) {
    byte[] name = logdir.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(HEADER_PREFIX_BYTES + name.length + 4);
    b.put(magic).put(version).putInt(name.length).put(name);
    b.putInt(crc(b.array(), 0, b.position()));
    return b.array();
  }

  /** The logdir a header names, or null if the header is not this store's or is damaged. */
  private String owner(byte[] magic, byte version) throws IOException {
    byte[] prefix = read(0, HEADER_PREFIX_BYTES);
    if (prefix == null) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(prefix);
    byte[] found = new byte[magic.length];
    b.get(found);
    int length = Arrays.equals(found, magic) && b.get() == version ? b.getInt() : -1;
    if (length < 0 || length > MAX_LOGDIR_BYTES) {
      return null;
    }
    byte[] header = read(0, HEADER_PREFIX_BYTES + length + 4);
    int crcAt = HEADER_PREFIX_BYTES + length;
    if (header == null || crc(header, 0, crcAt) != ByteBuffer.wrap(header).getInt(crcAt)) {
      return null;
    }
    return new String(header, HEADER_PREFIX_BYTES, length, StandardCharsets.UTF_8);
  }

  Path file() {
    return file;
  }

  /** Bytes cut from the end on open (a torn last write); for the opener to log. */
  long truncatedBytes() {
    return truncatedBytes;
  }

  /**
   * Frames and appends a record body; readable at once, durable after {@link #sync()}. It may wait
   * in memory until then, or until more records fill {@link #WRITE_BUFFER_BYTES}.
   */
  Slot append(byte[] body) {
    int framed = FRAME_BYTES + body.length;
    if (unwritten.remaining() < framed) {
      writeBuffered();
    }
    ByteBuffer b = framed <= unwritten.capacity() ? unwritten : ByteBuffer.allocate(framed);
    int start = b.position();
    b.putInt(body.length).put(body);
    b.putInt(crc(b.array(), start, b.position() - start));
    Slot slot = new Slot(end, framed);
    end += framed;
    dirty = true;
    if (b != unwritten) {
      write(b, slot.offset); // larger than the buffer, which is empty now: straight to the file
      written = end;
    }
    return slot;
  }

  /** Writes the buffered records to the file. */
  private void writeBuffered() {
    if (unwritten.position() > 0) {
      write(unwritten, written);
      written = end;
      unwritten.clear();
    }
  }

  private void write(ByteBuffer framed, long at) {
    try {
      write(framed.array(), framed.position(), at);
    } catch (IOException e) {
      throw new StoreFileException(file, "cannot append to " + what + " at offset " + at, e);
    }
  }

  /** The body of the record in {@code slot}, checked against its CRC. */
  ByteBuffer read(Slot slot) {
    if (slot.offset + slot.length > written) {
      writeBuffered();
    }
    try {
      byte[] record = read(slot.offset, slot.length);
      ByteBuffer body = record == null ? null : body(record);
      if (body == null) {
        throw new StoreFileException(
            file, what + " record changed on disk at offset " + slot.offset, null);
      }
      return body;
    } catch (IOException e) {
      throw new StoreFileException(file, "cannot read " + what + " at offset " + slot.offset, e);
    }
  }

  void sync() {
    if (!dirty) {
      return;
    }
    writeBuffered();
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new StoreFileException(file, "cannot sync " + what, e);
    }
    dirty = false;
  }

  @Override
  public void close() {
    try {
      sync();
    } finally {
      try {
        channel.close();
      } catch (IOException e) {
        throw new StoreFileException(file, "cannot close " + what, e);
      }
    }
  }

  /** The body of a framed record, or null if its CRC does not match. */
  private static ByteBuffer body(byte[] framed) {
    int crcAt = framed.length - 4;
    if (crc(framed, 0, crcAt) != ByteBuffer.wrap(framed).getInt(crcAt)) {
      return null;
    }
    return ByteBuffer.wrap(framed, 4, crcAt - 4).slice();
  }

  /** The framed record at {@code at}, or null if it does not fit in {@code size} bytes. */
  private byte[] readRecord(long at, long size) throws IOException {
    if (size - at < FRAME_BYTES) {
      return null;
    }
    int body = ByteBuffer.wrap(read(at, 4)).getInt();
    if (body < 0 || body > MAX_BODY_BYTES || size - at < body + (long) FRAME_BYTES) {
      return null;
    }
    return read(at, body + FRAME_BYTES);
  }

  private void write(byte[] bytes, int length, long position) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes, 0, length);
    while (b.hasRemaining()) {
      channel.write(b, position + b.position());
    }
  }

  /** Exactly {@code length} bytes at {@code position}, or null if the file ends first. */
  private byte[] read(long position, int length) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(length);
    while (b.hasRemaining()) {
      if (channel.read(b, position + b.position()) < 0) {
        return null;
      }
    }
    return b.array();
  }

  private static int crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
