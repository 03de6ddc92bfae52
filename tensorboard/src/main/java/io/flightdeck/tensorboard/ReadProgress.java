package io.flightdeck.tensorboard;

import java.nio.file.Path;

/**
 * Where a poll of one file stopped.
 *
 * @param offset the byte offset the next poll starts from
 * @param records records decoded by this poll (corrupt ones not counted)
 * @param pendingBytes bytes after {@code offset} that do not yet form a whole record: a writer
 *     still flushing, or the tail of a damaged stretch; poll again later
 */
public record ReadProgress(Path file, long offset, long records, long pendingBytes) {
  /** True when the file ends in an incomplete record: wait and poll again, it is not damage. */
  public boolean incomplete() {
    return pendingBytes > 0;
  }
}
