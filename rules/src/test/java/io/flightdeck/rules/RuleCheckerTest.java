package io.flightdeck.rules;

import static io.flightdeck.rules.RulePacksTest.print;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** promtool check rules' report: stdout for progress and success, stderr for failures. */
class RuleCheckerTest {
  private static final Path DIR = Path.of("src/test/resources/rules/check");
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void goodFileSucceeds() {
    int code = new RuleChecker().run(List.of(DIR.resolve("good.yml")), print(out), print(err));
    assertThat(code).isZero();
    assertThat(text(out))
        .isEqualTo("Checking " + DIR.resolve("good.yml") + "\n  SUCCESS: 2 rules found\n\n");
    assertThat(text(err)).isEmpty();
  }

  @Test
  void badFileFailsWithExitCodeOneAndTheOthersAreStillChecked() {
    Path bad = DIR.resolve("bad_expr.yml");
    Path good = DIR.resolve("good.yml");
    int code = new RuleChecker().run(List.of(bad, good), print(out), print(err));
    assertThat(code).isEqualTo(1);
    assertThat(text(out))
        .isEqualTo("Checking " + bad + "\n\nChecking " + good + "\n  SUCCESS: 2 rules found\n\n");
    assertThat(text(err))
        .isEqualTo(
            "  FAILED:\n"
                + bad
                + ": 5:15: group \"example\", rule 1, \"InstanceDown\": could not parse expression:"
                + " 1:6: parse error: unexpected end of input\n");
  }

  private static String text(ByteArrayOutputStream s) {
    return s.toString(StandardCharsets.UTF_8);
  }
}
