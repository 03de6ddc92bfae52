package io.flightdeck.testkit;

import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.listOf;
import static io.flightdeck.testkit.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The property runner: seeded, reproducible, reporting and shrinking its failures. */
class PropertyTest {

  private static AssertionError failureOf(Property property, Property.Body body) {
    return catchThrowableOfType(AssertionError.class, () -> property.check(body));
  }

  @Test
  void aFailureReportsSeedCaseInputsAndAOneLineReproduction() {
    AssertionError failure =
        failureOf(
            Property.tries(500).seed(42),
            in -> {
              int x = in.draw("x", integers(0, 1_000_000));
              assertThat(x).isLessThan(5000);
            });

    assertThat(failure).isNotNull();
    assertThat(failure.getMessage())
        .contains("Property PropertyTest#aFailureReportsSeedCaseInputsAndAOneLineReproduction")
        .contains("(seed 42, 500 tries)")
        .containsPattern("failed at case \\d+ ")
        .contains("shrunk input")
        .contains("original input:\n    x = ")
        .contains(
            "reproduce: ./mvnw -pl testkit test"
                + " -Dtest=PropertyTest#aFailureReportsSeedCaseInputsAndAOneLineReproduction"
                + " -Dflightdeck.seed=42");
    // The reproduction is one line, the last of the report.
    String[] lines = failure.getMessage().split("\n");
    assertThat(lines[lines.length - 1]).startsWith("  reproduce: ./mvnw ");
    assertThat(failure.getCause()).isInstanceOf(AssertionError.class);
  }

  @Test
  void anIntegerShrinksToTheSmallestThatFails() {
    AssertionError failure =
        failureOf(
            Property.tries(500),
            in -> {
              long x = in.draw("x", longs(-1_000_000_000L, 1_000_000_000L));
              assertThat(x).isLessThan(5000);
            });

    assertThat(failure.getMessage()).contains("shrunk input").contains("    x = 5000L\n");
  }

  @Test
  void aNegativeIntegerShrinksTowardsZeroToo() {
    AssertionError failure =
        failureOf(
            Property.tries(500),
            in -> {
              int x = in.draw("x", integers(-1_000_000, 1_000_000));
              assertThat(x).isGreaterThan(-77);
            });

    assertThat(failure.getMessage()).contains("    x = -77\n");
  }

  @Test
  void aListShrinksToItsOneElementThatMatters() {
    AssertionError failure =
        failureOf(
            Property.tries(500),
            in -> {
              List<Integer> xs = in.draw("xs", listOf(integers(0, 1000), 0, 50));
              assertThat(xs).allSatisfy(x -> assertThat(x).isLessThan(700));
            });

    assertThat(failure.getMessage()).contains("    xs = [700]\n");
  }

  @Test
  void aListShrinksToTheFewestAndSmallestElementsThatFail() {
    AssertionError failure =
        failureOf(
            Property.tries(500),
            in -> {
              List<Integer> xs = in.draw("xs", listOf(integers(-100, 100), 0, 80));
              assertThat(xs).hasSizeLessThan(3);
            });

    assertThat(failure.getMessage()).contains("    xs = [0, 0, 0]\n");
  }

  @Test
  void aStringShrinksToItsOffendingCharacter() {
    AssertionError failure =
        failureOf(
            Property.tries(1000),
            in -> {
              String s = in.draw("s", Generators.strings(Generators.charRange('a', 'z'), 0, 40));
              assertThat(s).doesNotContain("q");
            });

    assertThat(failure.getMessage()).contains("    s = \"q\"\n");
  }

  @Test
  void anyTextShrinksToo() {
    AssertionError failure =
        failureOf(
            Property.tries(1000),
            in -> {
              String s = in.draw("s", Generators.strings());
              assertThat(s.length()).isLessThan(3);
            });

    // Three of the simplest character: a space, the first of printable ASCII.
    assertThat(failure.getMessage()).contains("    s = \"   \"\n");
  }

  @Test
  void theShrunkFailureIsTheCauseAndFailsTheSameWay() {
    AssertionError failure =
        failureOf(
            Property.tries(200),
            in -> {
              int[] array = new int[in.draw("size", integers(0, 100))];
              if (array.length > 10) {
                throw new IllegalStateException("too long: " + array.length);
              }
            });

    assertThat(failure.getCause())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("too long: 11");
    assertThat(failure.getMessage()).contains("failure: java.lang.IllegalStateException");
  }

  @Test
  void theSameSeedGivesTheSameCasesAndAnotherSeedOthers() {
    List<List<Object>> first = casesOf(7);
    List<List<Object>> again = casesOf(7);
    List<List<Object>> other = casesOf(8);

    assertThat(first).hasSize(50).isEqualTo(again).isNotEqualTo(other);
  }

  private static List<List<Object>> casesOf(long seed) {
    List<List<Object>> cases = new ArrayList<>();
    Property.tries(50)
        .seed(seed)
        .check(
            in ->
                cases.add(
                    List.of(
                        in.draw("n", longs()),
                        in.draw("s", Generators.strings()),
                        in.draw("d", Generators.anyDoubles()),
                        in.draw("l", listOf(integers(-5, 5), 0, 10)))));
    return cases;
  }

  @Test
  void theSeedComesFromTheSystemPropertyThenTheTestThenItsName() {
    TestCoordinates where = new TestCoordinates("a.B", "B", "m", "x");

    assertThat(Property.seedFor("123", 5L, where)).isEqualTo(123);
    assertThat(Property.seedFor("-0x10", 5L, where)).isEqualTo(-16);
    assertThat(Property.seedFor(null, 5L, where)).isEqualTo(5);
    assertThat(Property.seedFor(null, null, where)).isEqualTo(where.defaultSeed());
    assertThat(where.defaultSeed())
        .isEqualTo(new TestCoordinates("a.B", "B", "m", "y").defaultSeed())
        .isNotEqualTo(new TestCoordinates("a.B", "B", "n", "x").defaultSeed());
    assertThatThrownBy(() -> Property.seedFor("12x", null, where))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("flightdeck.seed");
  }

  @Test
  void aPassingPropertyRunsEveryTryAndCountsItsClassifications() {
    int[] runs = {0};
    Coverage coverage =
        Property.tries(300)
            .check(
                in -> {
                  runs[0]++;
                  in.classify(in.draw("b", Generators.booleans()) ? "true" : "false");
                });

    assertThat(runs[0]).isEqualTo(300);
    assertThat(coverage.cases()).isEqualTo(300);
    assertThat(coverage.count("true") + coverage.count("false")).isEqualTo(300);
    assertThat(coverage.percentage("true")).isBetween(30.0, 70.0);
  }

  @Test
  void aFilterThatRefusesEverythingFailsNamingTheTest() {
    assertThatThrownBy(
            () -> Property.tries(10).check(in -> in.draw("x", integers(0, 10).filter(x -> x > 10))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PropertyTest#aFilterThatRefusesEverythingFailsNamingTheTest")
        .hasMessageContaining("cases discarded");
  }
}
