package io.flightdeck.collector.host;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.IOException;

/**
 * {@link FilesystemUsage} through libc's statvfs(3) via JNA: java.nio's {@code FileStore} has the
 * space but not the inode counts node_exporter reports. Layout of {@code struct statvfs} on 64-bit
 * Linux (glibc and musl): eleven 8-byte fields, bsize first, then padding to 112 bytes.
 */
final class LibcStatvfs implements FilesystemUsage {
  private static final int STRUCT_WORDS = 112 / 8;

  static {
    // Direct mapping: a call through JNA's Function converts every argument anew, and the agent
    // reads every mount each second. libc always has statvfs.
    Native.register(LibcStatvfs.class, NativeLibrary.getInstance("c"));
  }

  private static native int statvfs(String path, long[] buf) throws LastErrorException;

  @Override
  public Stat stat(String mountPoint) throws IOException {
    if (Native.LONG_SIZE != 8) {
      throw new IOException("statvfs is only read on 64-bit Linux");
    }
    long[] buf = new long[STRUCT_WORDS];
    try {
      statvfs(mountPoint, buf);
    } catch (LastErrorException e) {
      throw new IOException("statvfs " + mountPoint + ": errno " + e.getErrorCode());
    }
    return new Stat(buf[0], buf[2], buf[3], buf[4], buf[5], buf[6]);
  }
}
