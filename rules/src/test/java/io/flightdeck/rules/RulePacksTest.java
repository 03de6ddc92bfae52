package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shipped packs pass their own promtool-format tests with our tester, and, where promtool is
 * installed, with promtool itself: both must agree on the pack files.
 */
class RulePacksTest {
  private static final Path PACKS = Path.of("packs");
  private static final Path PROMTOOL = Path.of("/usr/bin/promtool");

  @ParameterizedTest
  @ValueSource(strings = {"gpu", "training", "training-detections"})
  void packPassesItsUnitTestsWithOurTester(String pack) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new RuleUnitTester(TestStorage.factory())
            .run(List.of(PACKS.resolve(pack + "_test.yml")), print(out), print(err));
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo("Unit Testing:  packs/" + pack + "_test.yml\n  SUCCESS\n\n");
    assertThat(code).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gpu", "training", "training-detections"})
  void theJarCarriesEachPackExactlyAsInTheSourceTree(String pack) throws IOException {
    assertThat(RulePacks.text(pack + ".yml"))
        .isEqualTo(Files.readString(PACKS.resolve(pack + ".yml")));
  }

  @org.junit.jupiter.api.Test
  void writeToReplacesOlderCopiesAndReturnsThemInLoadOrder(
      @org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Path folder = dir.resolve("packs");
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("gpu.yml"), "groups: []\n");
    assertThat(RulePacks.writeTo(folder))
        .containsExactly(
            folder.resolve("gpu.yml"),
            folder.resolve("training.yml"),
            folder.resolve("training-detections.yml"));
    assertThat(Files.readString(folder.resolve("gpu.yml"))).isEqualTo(RulePacks.text("gpu.yml"));
    try (var files = Files.list(folder)) {
      assertThat(files).as("no partial file left").hasSize(3);
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RulePacks.text("nope.yml"))
        .hasMessageContaining("no rule pack named nope.yml");
  }

  @ParameterizedTest
  @ValueSource(strings = {"gpu", "training", "training-detections"})
  void packPassesOurChecker(String pack) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new RuleChecker().run(List.of(PACKS.resolve(pack + ".yml")), print(out), print(err));
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("Checking packs/" + pack + ".yml\n  SUCCESS: ");
    assertThat(code).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gpu", "training", "training-detections"})
  void promtoolAcceptsAndPassesThePack(String pack) throws Exception {
    assertThat(PROMTOOL)
        .as("promtool, from Debian's prometheus package (./run-tests installs it as root)")
        .isExecutable();
    assertThat(promtool("check", "rules", pack + ".yml")).contains("SUCCESS");
    assertThat(promtool("test", "rules", pack + "_test.yml")).contains("SUCCESS");
  }

  private static String promtool(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of(PROMTOOL.toString()));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(PACKS.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    return output;
  }

  static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }
}
