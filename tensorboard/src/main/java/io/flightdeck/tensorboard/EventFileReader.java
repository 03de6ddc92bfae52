package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Reads one event file incrementally: each {@link #poll} decodes the records that became complete
 * since the last one and remembers where it stopped, so an append-only file can be tailed while a
 * job writes it. The file is opened only for the duration of a poll. Not thread-safe.
 */
public final class EventFileReader {
  private final Path file;
  private final TfRecordReader records;
  private final EventDecoder decoder;

  /** A reader for a file read on its own; files of one run should share a {@link RunReader}. */
  public EventFileReader(Path file) {
    this(file, new EventDecoder());
  }

  EventFileReader(Path file, EventDecoder decoder) {
    this.file = file;
    this.records = new TfRecordReader(file);
    this.decoder = decoder;
  }

  public Path file() {
    return file;
  }

  /**
   * Decodes every complete record after the current offset, handing points, corruptions and the
   * file version to {@code listener}.
   *
   * @throws EventFileException if the file cannot be opened or read
   */
  public ReadProgress poll(EventListener listener) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        FileWindow window = new FileWindow(channel, records.offset())) {
      long decoded = 0;
      while (true) {
        // Type tests rather than a pattern switch, which C1 runs as a call through the switch's
        // bootstrapped method handle, once per record.
        TfRecordReader.Step step = records.next(window);
        if (step instanceof TfRecordReader.Record record) {
          if (decode(record, listener)) {
            decoded++;
          }
        } else if (step instanceof TfRecordReader.Damaged damaged) {
          listener.corruption(damaged.corruption());
        } else {
          TfRecordReader.End end = (TfRecordReader.End) step;
          return new ReadProgress(file, end.offset(), decoded, end.pendingBytes());
        }
      }
    } catch (IOException e) {
      throw new EventFileException(file, "cannot read event file", e);
    }
  }

  private boolean decode(TfRecordReader.Record record, EventListener listener) {
    if (decoder.simpleScalar(record.buffer(), record.start(), record.length(), listener)
        || decoder.simpleHistogram(record.buffer(), record.start(), record.length(), listener)) {
      return true;
    }
    EventDecoder.DecodedEvent event;
    try {
      event = decoder.decode(record.buffer(), record.start(), record.length());
    } catch (IOException e) {
      // Decoding reads from memory: the only failure is a malformed message.
      listener.corruption(
          new Corruption(file, record.offset(), Corruption.Kind.BAD_EVENT, e.getMessage()));
      return false;
    }
    if (event.fileVersion() != null) {
      listener.fileVersion(file, event.fileVersion());
    }
    // An indexed loop: under C1 a bound method reference cost an allocation through a method
    // handle per record (a tenth of the decoding thread's time), an iterator one more object.
    List<SummaryPoint> points = event.points();
    for (int i = 0; i < points.size(); i++) {
      listener.point(points.get(i));
    }
    return true;
  }
}
