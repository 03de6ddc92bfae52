package io.flightdeck.collector.host;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads procfs files, which are small and must be read whole to be consistent. */
public final class ProcFile {
  private ProcFile() {}

  /**
   * Per thread, the bytes of the file being read: the agent reads half a dozen procfs files every
   * second, and {@link java.nio.file.Files#readAllBytes} took about twice the time of the kernel's
   * work on them in channel set-up and buffer growth (procfs files report a size of 0).
   */
  private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[16384]);

  /** At most this much per read: FileInputStream copies through a stack buffer up to 8 KiB. */
  private static final int CHUNK = 8192;

  /**
   * The file's lines, split at line feeds with a carriage return before one dropped. One read and
   * one string instead of a decoding reader: the agent reads a dozen of these every second.
   */
  static List<String> lines(Path root, String relative) throws IOException {
    String text = read(root.resolve(relative));
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      int next = end < 0 ? text.length() : end + 1;
      int stop = end < 0 ? text.length() : end;
      if (stop > start && text.charAt(stop - 1) == '\r') {
        stop--;
      }
      lines.add(text.substring(start, stop));
      start = next;
    }
    return lines;
  }

  /**
   * The whole file as UTF-8, read into this thread's buffer; a procfs file through the channel
   * {@link ProcfsChannels} keeps open, so this is for a fixed set of files, not per-process ones.
   */
  public static String read(Path file) throws IOException {
    FileChannel channel = ProcfsChannels.channel(file);
    if (channel == null) {
      try (FileInputStream in = new FileInputStream(file.toFile())) {
        return readAll(in::read);
      }
    }
    try {
      // Each read at the offset reached so far: a read at offset 0 makes the kernel generate anew.
      return readAll(
          (buffer, offset, length) ->
              channel.read(ByteBuffer.wrap(buffer, offset, length), offset));
    } catch (IOException e) {
      ProcfsChannels.forget(file, channel);
      throw e;
    }
  }

  /**
   * One read of up to {@code length} bytes into {@code buffer} at {@code offset}; -1 at the end.
   */
  @FunctionalInterface
  private interface Reader {
    int read(byte[] buffer, int offset, int length) throws IOException;
  }

  private static String readAll(Reader reader) throws IOException {
    byte[] buffer = BUFFER.get();
    int length = 0;
    while (true) {
      if (length == buffer.length) {
        buffer = Arrays.copyOf(buffer, buffer.length * 2);
        BUFFER.set(buffer);
      }
      int n = reader.read(buffer, length, Math.min(CHUNK, buffer.length - length));
      if (n < 0) {
        break;
      }
      length += n;
    }
    return new String(buffer, 0, length, StandardCharsets.UTF_8);
  }

  /** Whitespace-separated fields of a line, leading and trailing blanks ignored. */
  static String[] fields(String line) {
    List<String> fields = new ArrayList<>(16);
    int i = 0;
    int n = line.length();
    while (i < n) {
      while (i < n && isBlank(line.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !isBlank(line.charAt(i))) {
        i++;
      }
      if (i > start) {
        fields.add(line.substring(start, i));
      }
    }
    return fields.toArray(String[]::new);
  }

  /** The characters of the regular expression class {@code \\s}. */
  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }

  /**
   * Parses a number to the nearest double, as node_exporter's conversion of a parsed uint64 does,
   * so counters above 2^53 round exactly as node_exporter's do.
   */
  static double number(String text, String file, String line) throws MalformedProcFileException {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new MalformedProcFileException("not a number: " + text, file, line);
    }
  }
}
