package io.flightdeck.collector.host;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.IOException;

/**
 * {@link FilesystemUsage} through libc's statvfs(3) via JNA: java.nio's {@code FileStore} has the
 * space but not the inode counts node_exporter reports. Layout of {@code struct statvfs} on 64-bit
 * Linux (glibc and musl): eleven 8-byte fields, bsize first.
 */
final class LibcStatvfs implements FilesystemUsage {
  private static final int STRUCT_BYTES = 112;

  private final Function statvfs = NativeLibrary.getInstance("c").getFunction("statvfs");

  @Override
  public Stat stat(String mountPoint) throws IOException {
    if (Native.LONG_SIZE != 8) {
      throw new IOException("statvfs is only read on 64-bit Linux");
    }
    try (Memory buf = new Memory(STRUCT_BYTES)) {
      buf.clear();
      int rc = statvfs.invokeInt(new Object[] {mountPoint, buf});
      if (rc != 0) {
        throw new IOException("statvfs " + mountPoint + ": errno " + Native.getLastError());
      }
      return new Stat(
          buf.getLong(0),
          buf.getLong(16),
          buf.getLong(24),
          buf.getLong(32),
          buf.getLong(40),
          buf.getLong(48));
    }
  }
}
