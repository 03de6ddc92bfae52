package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Coverage-guided fuzzing of the PromQL parser and printer (Jazzer). Without {@code JAZZER_FUZZ}
 * this replays the committed inputs in {@code PromQLJazzerFuzzTestInputs/parsePrintParse}; {@code
 * ./run-tests --fuzz promql} explores from them (docs/testing.md).
 */
class PromQLJazzerFuzzTest {
  /**
   * Any text either parses or fails with {@link ParseException}, never another exception; a tree
   * prints as text that parses, and back to the same tree unless the tree holds one of the
   * constructs Prometheus itself prints ambiguously (which we print as it does).
   */
  @FuzzTest(maxDuration = "30s")
  void parsePrintParse(byte[] input) {
    String query = new String(input, StandardCharsets.UTF_8);
    Expr parsed;
    try {
      parsed = PromQLParser.parse(query, ParseOptions.DEFAULT);
    } catch (ParseException e) {
      assertThat(e.getMessage()).contains("parse error: ");
      return;
    }
    String printed = parsed.toString();
    Expr reparsed = PromQLParser.parse(printed, ParseOptions.DEFAULT);
    if (!printedAmbiguouslyAsPrometheusDoes(parsed, printed)) {
      assertThat(StructuralEquality.equal(parsed, reparsed))
          .as("%s printed as %s", query, printed)
          .isTrue();
      assertThat(reparsed.toString()).as("reprint of %s", printed).isEqualTo(printed);
    }
  }

  /**
   * Prometheus's printer loses the grouping or sign of three constructs, each pinned in {@link
   * ParserCasesTest}: "+Inf" before "^" reads back as a sign; an offset that goes on into
   * arithmetic ("offset (1h) * 2", "offset +-2 * 1") prints without what made it one offset; and a
   * negative zero duration ("-0m") prints as "0s".
   */
  private static boolean printedAmbiguouslyAsPrometheusDoes(Expr parsed, String printed) {
    return printed.contains("Inf ^") || anyNode(parsed);
  }

  private static boolean anyNode(Object node) {
    if (node instanceof List<?> list) {
      return list.stream().anyMatch(PromQLJazzerFuzzTest::anyNode);
    }
    if (node == null || !node.getClass().isRecord() || node instanceof FunctionSignature) {
      return false;
    }
    if (node instanceof NumberLiteral n
        && n.duration()
        && Double.doubleToRawLongBits(n.value()) == Double.doubleToRawLongBits(-0.0)) {
      return true;
    }
    if (node instanceof VectorSelector v && offsetArithmetic(v.originalOffsetExpr())
        || node instanceof SubqueryExpr s && offsetArithmetic(s.originalOffsetExpr())) {
      return true;
    }
    for (RecordComponent component : node.getClass().getRecordComponents()) {
      try {
        if (anyNode(component.getAccessor().invoke(node))) {
          return true;
        }
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }
    return false;
  }

  /** More than the one (signed) literal, function or parenthesis an offset reads by itself. */
  private static boolean offsetArithmetic(DurationExpr offset) {
    if (offset == null || offset.wrapped() || isFunction(offset)) {
      return false;
    }
    return offset.lhs() != null
        || offset.rhs() instanceof DurationExpr operand
            && !operand.wrapped()
            && !isFunction(operand);
  }

  private static boolean isFunction(DurationExpr d) {
    return switch (d.op()) {
      case STEP, RANGE, MIN_OF, MAX_OF -> true;
      default -> false;
    };
  }
}
