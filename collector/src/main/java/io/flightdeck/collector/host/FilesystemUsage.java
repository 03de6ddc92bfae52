package io.flightdeck.collector.host;

import java.io.IOException;

/**
 * Space and inode counts of a mounted filesystem, as statvfs(3) reports them. Implementations are
 * thread-safe.
 */
@FunctionalInterface
public interface FilesystemUsage {

  /** One filesystem's counts; {@code blockSize} is {@code f_bsize}, which node_exporter uses. */
  record Stat(long blockSize, long blocks, long free, long available, long files, long filesFree) {}

  /** Reads the counts of the filesystem mounted at {@code mountPoint}. */
  Stat stat(String mountPoint) throws IOException;
}
