package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The OpenMetrics project's parser conformance cases: accept the good, reject the bad. */
class OpenMetricsSuiteTest {
  private static final Pattern SHOULD_PARSE =
      Pattern.compile("\"shouldParse\"\\s*:\\s*(true|false)");

  private static List<Path> cases() throws IOException {
    try (Stream<Path> dirs = Files.list(SharedFixtures.fixture("openmetrics-suite"))) {
      return dirs.filter(Files::isDirectory).sorted().toList();
    }
  }

  private static boolean shouldParse(Path dir) throws IOException {
    var matcher = SHOULD_PARSE.matcher(Files.readString(dir.resolve("test.json")));
    assertThat(matcher.find()).as("shouldParse in %s", dir).isTrue();
    return Boolean.parseBoolean(matcher.group(1));
  }

  @Test
  void suiteHasTheDocumentedCases() throws IOException {
    long good = 0;
    long bad = 0;
    for (Path dir : cases()) {
      if (shouldParse(dir)) {
        good++;
      } else {
        bad++;
      }
    }
    assertThat(good).isEqualTo(30);
    assertThat(bad).isEqualTo(112);
  }

  @TestFactory
  Stream<DynamicTest> everyCase() throws IOException {
    return cases().stream()
        .map(
            dir ->
                DynamicTest.dynamicTest(
                    dir.getFileName().toString(),
                    () -> {
                      byte[] body = Files.readAllBytes(dir.resolve("metrics"));
                      if (shouldParse(dir)) {
                        ExpositionParser.parseAll(
                            ExpositionFormat.OPENMETRICS_1_0_0, body, ParseOptions.defaults());
                      } else {
                        assertThatThrownBy(
                                () ->
                                    ExpositionParser.parseAll(
                                        ExpositionFormat.OPENMETRICS_1_0_0,
                                        body,
                                        ParseOptions.defaults()))
                            .isInstanceOf(ExpositionParseException.class);
                      }
                    }));
  }
}
