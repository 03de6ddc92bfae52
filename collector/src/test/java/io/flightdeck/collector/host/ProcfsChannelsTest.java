package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Procfs files are kept open and read anew from the start; other files are opened each time. */
class ProcfsChannelsTest {
  private static final Path PROC = Path.of("/proc");

  @TempDir Path dir;

  @Test
  void aKeptProcfsFileIsGeneratedAnewAtEveryRead() throws Exception {
    assumeTrue(Files.isReadable(PROC.resolve("uptime")), "needs a Linux procfs");

    String first = ProcFile.lines(PROC, "uptime").get(0);
    Thread.sleep(50); // /proc/uptime counts in hundredths of a second
    String second = ProcFile.lines(PROC, "uptime").get(0);

    assertThat(ProcfsChannels.channel(PROC.resolve("uptime")))
        .isNotNull()
        .isSameAs(ProcfsChannels.channel(PROC.resolve("uptime")));
    assertThat(second).isNotEqualTo(first);
  }

  @Test
  void aFileElsewhereIsReadAnewEvenWhenReplaced() throws Exception {
    Files.writeString(dir.resolve("stat"), "cpu 1\n");
    assertThat(ProcFile.lines(dir, "stat")).containsExactly("cpu 1");

    Path replacement = Files.writeString(dir.resolve("stat.new"), "cpu 2\nintr 3\n");
    Files.move(replacement, dir.resolve("stat"), StandardCopyOption.REPLACE_EXISTING);

    assertThat(ProcFile.lines(dir, "stat")).containsExactly("cpu 2", "intr 3");
    assertThat(ProcfsChannels.channel(dir.resolve("stat"))).isNull();
  }

  @Test
  void aMissingFileIsReportedAsMissing() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProcFile.lines(dir, "absent"))
        .isInstanceOf(java.io.FileNotFoundException.class);
  }
}
