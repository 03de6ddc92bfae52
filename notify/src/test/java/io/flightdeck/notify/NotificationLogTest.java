package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotificationLogTest {
  @TempDir Path dir;

  @Test
  void roundTripsThroughItsFile() throws Exception {
    NotificationLog log = new NotificationLog(dir, 1_000_000);
    log.put(
        "team/webhook[0]/{}:{}", new NotificationLog.Entry(Set.of("b", "a"), Set.of("c"), 5000));
    List<String> lines = Files.readAllLines(dir.resolve(NotificationLog.FILE_NAME));
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).isEqualTo("flightdeck-notification-log 2");
    assertThat(lines.get(1))
        .isEqualTo(
            "{\"entries\":[{\"key\":\"team/webhook[0]/{}:{}\",\"firing\":[\"a\",\"b\"],\"resolved\":[\"c\"],\"at\":5000}]}");
    assertThat(lines.get(2)).matches("crc32 [0-9a-f]{8}");

    NotificationLog reopened = new NotificationLog(dir, 1_000_000);
    assertThat(reopened.get("team/webhook[0]/{}:{}"))
        .isEqualTo(new NotificationLog.Entry(Set.of("a", "b"), Set.of("c"), 5000));
  }

  @Test
  void aCorruptFileIsIgnored() throws Exception {
    NotificationLog log = new NotificationLog(dir, 1_000_000);
    log.put("k", new NotificationLog.Entry(Set.of("a"), Set.of(), 5000));
    Path file = dir.resolve(NotificationLog.FILE_NAME);
    Files.writeString(file, Files.readString(file).replace("\"a\"", "\"x\""));
    assertThat(new NotificationLog(dir, 1_000_000).get("k")).isNull();
  }

  @Test
  void oldEntriesExpire() {
    NotificationLog log = new NotificationLog(null, 1000);
    log.put("old", new NotificationLog.Entry(Set.of(), Set.of(), 1000));
    log.put("new", new NotificationLog.Entry(Set.of(), Set.of(), 2500));
    assertThat(log.get("old")).isNull();
    assertThat(log.get("new")).isNotNull();
  }
}
