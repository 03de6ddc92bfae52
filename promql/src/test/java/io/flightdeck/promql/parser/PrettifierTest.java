package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Property;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Multi-line layout of {@code format_query}: where it splits, how deep it indents. */
class PrettifierTest {
  // 58 bytes each: two of them joined by an operator pass the 100-byte line.
  private static final String LEFT = "rate(node_network_receive_bytes_total{device=\"eth0\"}[5m])";
  private static final String RIGHT =
      "rate(node_network_transmit_bytes_total{device=\"eth0\"}[5m])";

  private static String prettify(String query) {
    return Prettifier.prettify(PromQLParser.parse(query, ParseOptions.DEFAULT));
  }

  @Test
  void aQueryThatFitsStaysOnOneCanonicalLine() {
    assertThat(prettify("sum(rate(x[5m]))by(job)")).isEqualTo("sum by (job) (rate(x[5m]))");
  }

  @Test
  void aLongBinaryPutsItsOperatorAloneBetweenIndentedSides() {
    assertThat(prettify(LEFT + " + on(instance) group_left " + RIGHT))
        .isEqualTo("  " + LEFT + "\n+ on (instance) group_left ()\n  " + RIGHT);
  }

  @Test
  void aLongAggregationIndentsItsParameterAndArgument() {
    assertThat(prettify("topk by (job) (5, " + LEFT + " + " + RIGHT + ")"))
        .isEqualTo("topk by (job) (\n  5,\n    " + LEFT + "\n  +\n    " + RIGHT + "\n)");
  }

  @Test
  void aLongCallPutsEachArgumentOnItsOwnLine() {
    String label = "label_replace(" + LEFT + ", \"dst\", \"$1\", \"device\", \"(.*)\")";
    assertThat(prettify(label))
        .isEqualTo(
            "label_replace(\n  " + LEFT + ",\n  \"dst\",\n  \"$1\",\n  \"device\",\n  \"(.*)\"\n)");
  }

  @Test
  void parenthesesOpenAndCloseOnTheirOwnLines() {
    assertThat(prettify("(" + LEFT + " - " + RIGHT + ") * 8"))
        .isEqualTo("  (\n      " + LEFT + "\n    -\n      " + RIGHT + "\n  )\n*\n  8");
  }

  @Test
  void aSubqueryKeepsItsExpressionsLevelAndAppendsItsRange() {
    assertThat(prettify("max_over_time((" + LEFT + " / " + RIGHT + ")[1h:1m] offset 5m)"))
        .isEqualTo(
            "max_over_time(\n  (\n      "
                + LEFT
                + "\n    /\n      "
                + RIGHT
                + "\n  )[1h:1m] offset 5m\n)");
  }

  @Test
  void aSignHugsItsOperand() {
    assertThat(prettify("-sum(" + LEFT + " + " + RIGHT + ")"))
        .isEqualTo("-sum(\n    " + LEFT + "\n  +\n    " + RIGHT + "\n)");
  }

  @Test
  void aSelectorIsNeverSplitHoweverLong() {
    String selector =
        "DCGM_FI_DEV_GPU_UTIL{Hostname=\"gpu-node-0042.cluster.internal\","
            + "UUID=\"GPU-12345678-9abc-def0-1234-56789abcdef0\",gpu=\"7\"}";
    assertThat(prettify(selector)).isEqualTo(selector);
  }

  @Test
  void theLineLimitCountsBytesNotCharacters() {
    // 93 characters, 109 bytes: the accented value pushes it over.
    String query = "a{l=\"" + "é".repeat(16) + "\"} + b{m=\"" + "x".repeat(60) + "\"}";
    assertThat(query.length()).isLessThanOrEqualTo(100);
    assertThat(query.getBytes(StandardCharsets.UTF_8).length).isGreaterThan(100);
    assertThat(prettify(query)).contains("\n+\n");
  }

  @Test
  void theLayoutParsesBackToTheSameTree() {
    Property.tries(1000)
        .check(
            in -> {
              laysOutAsTheSameTree(in.draw("vector", RandomQueries.vectors(6)));
              laysOutAsTheSameTree(in.draw("scalar", RandomQueries.scalars(5)));
              laysOutAsTheSameTree(in.draw("deeper vector", RandomQueries.vectors(8)));
            });
  }

  private static void laysOutAsTheSameTree(String query) {
    Expr parsed = PromQLParser.parse(query, ParseOptions.DEFAULT);
    String laidOut = Prettifier.prettify(parsed);
    assertThat(StructuralEquality.equal(parsed, PromQLParser.parse(laidOut, ParseOptions.DEFAULT)))
        .as("%s laid out as%n%s", query, laidOut)
        .isTrue();
    if (parsed.toString().getBytes(StandardCharsets.UTF_8).length <= 100) {
      assertThat(laidOut).isEqualTo(parsed.toString());
    }
  }
}
