package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemCollectorTest {
  private static final String MOUNTS =
      """
      proc /proc proc rw,relatime 0 0
      sysfs /sys sysfs rw,relatime 0 0
      /dev/vda / ext4 rw,relatime,discard 0 0
      tmpfs /dev/shm tmpfs rw,relatime 0 0
      /dev/vdb /data\\040set xfs ro,noatime 0 0
      /dev/vdb /data\\040set xfs ro,noatime 0 0
      cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0
      overlay /var/lib/docker/overlay2/abc/merged overlay rw 0 0
      tmpfs /run tmpfs rw,nosuid 0 0
      nfs:/export /scratch nfs4 rw 0 0
      /dev/vdc /mnt/usb vfat rw 0 0
      """;

  @TempDir Path proc;

  private final FilesystemUsage usage =
      mountPoint ->
          switch (mountPoint) {
            case "/" -> new FilesystemUsage.Stat(4096, 1000, 400, 300, 5000, 4000);
            case "/data set" -> new FilesystemUsage.Stat(1024, 10, 5, 5, 20, 10);
            case "/run", "/mnt/usb" -> new FilesystemUsage.Stat(4096, 2, 2, 2, 100, 99);
            default -> throw new IOException("no such mount");
          };

  @Test
  void reportsRealFilesystemsUnderNodeExporterNamesAndSkipsPseudoOnes() throws Exception {
    Files.writeString(proc.resolve("mounts"), MOUNTS);
    String text = MetricsText.toText(new FilesystemCollector(proc, usage).collect());

    assertThat(text)
        .contains(
            "node_filesystem_size_bytes{device=\"/dev/vda\",fstype=\"ext4\",mountpoint=\"/\"} 4096000")
        .contains(
            "node_filesystem_avail_bytes{device=\"/dev/vda\",fstype=\"ext4\",mountpoint=\"/\"} 1228800")
        .contains(
            "node_filesystem_free_bytes{device=\"/dev/vda\",fstype=\"ext4\",mountpoint=\"/\"} 1638400")
        .contains(
            "node_filesystem_files{device=\"/dev/vda\",fstype=\"ext4\",mountpoint=\"/\"} 5000")
        .contains(
            "node_filesystem_files_free{device=\"/dev/vda\",fstype=\"ext4\",mountpoint=\"/\"} 4000")
        .contains(
            "node_filesystem_readonly{device=\"/dev/vdb\",fstype=\"xfs\",mountpoint=\"/data set\"} 1")
        .contains(
            "node_filesystem_readonly{device=\"/dev/vda\",fstype=\"ext4\",mountpoint=\"/\"} 0")
        .contains(
            "node_filesystem_device_error{device=\"nfs:/export\",fstype=\"nfs4\",mountpoint=\"/scratch\"} 1")
        .doesNotContain("node_filesystem_size_bytes{device=\"nfs:/export\"")
        .doesNotContain("/proc")
        .doesNotContain("/run")
        .doesNotContain("/mnt/usb")
        .doesNotContain("/dev/shm")
        .doesNotContain("cgroup")
        .doesNotContain("overlay");
    assertThat(text.lines().filter(l -> l.startsWith("node_filesystem_size_bytes{")).count())
        .as("/ and /data set (listed twice)")
        .isEqualTo(2);
  }

  @Test
  void prefersTheMountsOfPid1() throws Exception {
    Files.writeString(proc.resolve("mounts"), "/dev/vdb /data\\040set xfs ro 0 0\n");
    Files.createDirectories(proc.resolve("1"));
    Files.writeString(proc.resolve("1/mounts"), "/dev/vda / ext4 rw 0 0\n");
    assertThat(MetricsText.toText(new FilesystemCollector(proc, usage).collect()))
        .contains("mountpoint=\"/\"")
        .doesNotContain("data set");
  }

  @Test
  void aTruncatedLineFailsTheCollector() throws Exception {
    Files.writeString(proc.resolve("mounts"), "/dev/vda /\n");
    assertThatThrownBy(() -> new FilesystemCollector(proc, usage).collect())
        .isInstanceOf(MalformedProcFileException.class);
  }

  @Test
  void libcStatvfsReadsTheRootFilesystem() throws Exception {
    FilesystemUsage.Stat root = new LibcStatvfs().stat("/");
    java.nio.file.FileStore store = Files.getFileStore(Path.of("/"));
    assertThat(root.blockSize()).isPositive();
    assertThat(root.blocks() * root.blockSize()).isEqualTo(store.getTotalSpace());
    assertThat(root.files()).isPositive();
    assertThatThrownBy(() -> new LibcStatvfs().stat("/no/such/mount/point"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("errno 2");
  }
}
