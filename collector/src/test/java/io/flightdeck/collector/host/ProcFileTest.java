package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFileTest {
  @Test
  void linesAreSplitAsAReaderSplitsThem(@TempDir Path root) throws Exception {
    Files.writeString(root.resolve("a"), "cpu  1 2\n\nintr 5\r\nlast");
    assertThat(ProcFile.lines(root, "a")).containsExactly("cpu  1 2", "", "intr 5", "last");
    Files.writeString(root.resolve("b"), "one\n");
    assertThat(ProcFile.lines(root, "b")).containsExactly("one");
    Files.writeString(root.resolve("c"), "");
    assertThat(ProcFile.lines(root, "c")).isEmpty();
  }

  @Test
  void fieldsAreWhatSplittingAtWhitespaceRunsGives() {
    Random random = new Random(3);
    String alphabet = "ab1 \t\u000B\f\r\n:";
    for (int i = 0; i < 20_000; i++) {
      char[] line = new char[random.nextInt(12)];
      for (int c = 0; c < line.length; c++) {
        line[c] = alphabet.charAt(random.nextInt(alphabet.length()));
      }
      String text = new String(line);
      String trimmed = text.strip();
      String[] expected = trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
      assertThat(ProcFile.fields(text)).as(Arrays.toString(line)).containsExactly(expected);
    }
  }
}
