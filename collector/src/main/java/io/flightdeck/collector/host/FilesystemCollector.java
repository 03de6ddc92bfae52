package io.flightdeck.collector.host;

import io.flightdeck.model.Labels;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * node_exporter's {@code filesystem} collector (1.5): every mount of {@code <procfs>/1/mounts} (or
 * {@code <procfs>/mounts}) but the pseudo filesystems and system mount points node_exporter skips
 * by default, with its six families and {@code node_filesystem_device_error} under the labels
 * {@code device}, {@code fstype} and {@code mountpoint}. A mount whose statvfs fails is reported
 * with {@code device_error} 1 and no other series. A mount listed twice is reported once.
 */
public final class FilesystemCollector implements Collector {
  /**
   * The {@code --collector.filesystem.mount-points-exclude} default of Debian's node_exporter 1.5,
   * which the differential test runs; upstream's skips {@code /run/credentials/.+} instead of
   * {@code /run}, {@code /mnt} and {@code /media}.
   */
  static final Pattern DEFAULT_MOUNT_POINTS_EXCLUDE =
      Pattern.compile(
          "^/(dev|proc|run|sys|mnt|media|var/lib/docker/.+|var/lib/containers/storage/.+)($|/)");

  /** node_exporter's {@code --collector.filesystem.fs-types-exclude} default. */
  static final Pattern DEFAULT_FS_TYPES_EXCLUDE =
      Pattern.compile(
          "^(autofs|binfmt_misc|bpf|cgroup2?|configfs|debugfs|devpts|devtmpfs|fusectl|hugetlbfs"
              + "|iso9660|mqueue|nsfs|overlay|proc|procfs|pstore|rpc_pipefs|securityfs|selinuxfs"
              + "|squashfs|sysfs|tracefs)$");

  private final Path procRoot;
  private final FilesystemUsage usage;

  FilesystemCollector(Path procRoot, FilesystemUsage usage) {
    this.procRoot = procRoot;
    this.usage = usage;
  }

  /** Mounts from {@code procRoot}, statvfs through libc. */
  public static FilesystemCollector linux(Path procRoot) {
    return new FilesystemCollector(procRoot, new LibcStatvfs());
  }

  @Override
  public String name() {
    return "filesystem";
  }

  @Override
  public List<MetricFamily> collect() throws IOException {
    String file = "1/mounts";
    List<String> lines;
    try {
      lines = ProcFile.lines(procRoot, file);
    } catch (FileNotFoundException e) {
      // A procfs without pid 1 (a fixture tree); trying first spares live hosts an access call.
      file = "mounts";
      lines = ProcFile.lines(procRoot, file);
    }
    MetricFamily size = gauge("size_bytes", "Filesystem size in bytes.");
    MetricFamily free = gauge("free_bytes", "Filesystem free space in bytes.");
    MetricFamily avail =
        gauge("avail_bytes", "Filesystem space available to non-root users in bytes.");
    MetricFamily files = gauge("files", "Filesystem total file nodes.");
    MetricFamily filesFree = gauge("files_free", "Filesystem total free file nodes.");
    MetricFamily readonly = gauge("readonly", "Filesystem read-only status.");
    MetricFamily deviceError =
        gauge(
            "device_error",
            "Whether an error occurred while getting statistics for the given device.");
    Set<List<String>> seen = new HashSet<>();
    for (String line : lines) {
      String[] fields = ProcFile.fields(line);
      if (fields.length < 4) {
        throw new MalformedProcFileException("expected at least 4 fields", file, line);
      }
      String device = fields[0];
      String mountPoint = fields[1].replace("\\040", " ").replace("\\011", "\t");
      String fsType = fields[2];
      if (DEFAULT_MOUNT_POINTS_EXCLUDE.matcher(mountPoint).find()
          || DEFAULT_FS_TYPES_EXCLUDE.matcher(fsType).find()
          || !seen.add(List.of(device, mountPoint, fsType))) {
        continue;
      }
      // One set for the mount's seven series.
      Labels labels = Labels.of("device", device, "fstype", fsType, "mountpoint", mountPoint);
      FilesystemUsage.Stat stat;
      try {
        stat = usage.stat(mountPoint);
      } catch (IOException e) {
        // As node_exporter: the mount stays visible through device_error, without numbers.
        deviceError.add(1, labels);
        continue;
      }
      deviceError.add(0, labels);
      double block = stat.blockSize();
      size.add(stat.blocks() * block, labels);
      free.add(stat.free() * block, labels);
      avail.add(stat.available() * block, labels);
      files.add(stat.files(), labels);
      filesFree.add(stat.filesFree(), labels);
      readonly.add(List.of(fields[3].split(",")).contains("ro") ? 1 : 0, labels);
    }
    return List.of(size, free, avail, files, filesFree, readonly, deviceError);
  }

  private static MetricFamily gauge(String suffix, String help) {
    return MetricFamily.gauge("node_filesystem_" + suffix, help);
  }
}
