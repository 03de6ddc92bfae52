package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Deeply nested queries end in a clear error, never a stack overflow, on a thread with the JVM's
 * default stack for new threads (1 MiB on 64-bit Linux); nesting up to the limit parses,
 * type-checks and prints there with room to spare (about four times the limit fits).
 */
class NestingLimitTest {
  private static final int LIMIT = SyntaxParser.MAX_DEPTH;
  private static final String TOO_DEEP =
      "parse error: expression nesting depth exceeds the limit of " + LIMIT;

  @Test
  void deepParenthesesFailCleanly() {
    assertTooDeep("(".repeat(100_000) + "1" + ")".repeat(100_000));
  }

  @Test
  void longSignChainsFailCleanly() {
    assertTooDeep("-".repeat(100_000) + "1");
  }

  @Test
  void longOperatorChainsFailCleanly() {
    assertTooDeep("a" + " + a".repeat(100_000));
    assertTooDeep("a" + " ^ a".repeat(100_000));
    assertTooDeep("foo[1m" + " + 1m".repeat(100_000) + "]");
    assertTooDeep("x" + "[1m:]".repeat(100_000));
  }

  @Test
  void deepCallsAggregationsAndSubqueriesFailCleanly() {
    assertTooDeep("abs(".repeat(100_000) + "x" + ")".repeat(100_000));
    assertTooDeep("clamp(".repeat(100_000) + "x" + ", 0, 1)".repeat(100_000));
    assertTooDeep("sum(".repeat(100_000) + "x" + ")".repeat(100_000));
    assertTooDeep("max_over_time(".repeat(100_000) + "x" + "[1m:])".repeat(100_000));
    assertTooDeep("x + (".repeat(100_000) + "x" + ")".repeat(100_000));
  }

  @Test
  void callsJustUnderTheLimitParseOnADefaultStack() throws Exception {
    // A call nests through more parser frames than a parenthesis, so it counts twice.
    int calls = LIMIT / 2 - 1;
    String query = "abs(".repeat(calls) + "x" + ")".repeat(calls);
    assertThat(onSmallStack(() -> PromQLParser.parse(query, ParseOptions.DEFAULT).toString()))
        .isEqualTo(query);
    assertTooDeep("abs(".repeat(calls + 1) + "x" + ")".repeat(calls + 1));
  }

  @Test
  void runningOutOfStackBelowTheLimitIsAParseError() throws Exception {
    String query = "(".repeat(LIMIT - 1) + "x" + ")".repeat(LIMIT - 1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                PromQLParser.parse(query, ParseOptions.DEFAULT);
              } catch (Throwable t) {
                failure.set(t);
              }
            },
            "tiny-stack",
            64 * 1024);
    thread.start();
    thread.join();
    assertThat(failure.get()).isInstanceOf(ParseException.class).hasMessageContaining(TOO_DEEP);
  }

  @Test
  void nestingUpToTheLimitWorks() throws Exception {
    String parens = "(".repeat(LIMIT / 2) + "x" + ")".repeat(LIMIT / 2);
    String chain = "x" + " + x".repeat(LIMIT - 2);
    String calls = "abs(".repeat(LIMIT / 3) + "x" + ")".repeat(LIMIT / 3);
    for (String query : new String[] {parens, chain, calls}) {
      String printed =
          onSmallStack(() -> PromQLParser.parse(query, ParseOptions.DEFAULT).toString());
      assertThat(printed).isEqualTo(query);
    }
  }

  private static void assertTooDeep(String query) {
    assertThatThrownBy(() -> onSmallStack(() -> PromQLParser.parse(query, ParseOptions.DEFAULT)))
        .isInstanceOf(ParseException.class)
        .hasMessageContaining(TOO_DEEP);
  }

  /** Runs on a thread with a 1 MiB stack. */
  private static <T> T onSmallStack(java.util.function.Supplier<T> work) throws Exception {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                result.set(work.get());
              } catch (Throwable t) {
                failure.set(t);
              }
            },
            "small-stack",
            1024 * 1024);
    thread.start();
    thread.join();
    if (failure.get() instanceof RuntimeException e) {
      throw e;
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    return result.get();
  }
}
