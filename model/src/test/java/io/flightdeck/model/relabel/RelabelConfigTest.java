package io.flightdeck.model.relabel;

import static io.flightdeck.model.relabel.RelabelAction.DROPEQUAL;
import static io.flightdeck.model.relabel.RelabelAction.HASHMOD;
import static io.flightdeck.model.relabel.RelabelAction.KEEPEQUAL;
import static io.flightdeck.model.relabel.RelabelAction.LABELDROP;
import static io.flightdeck.model.relabel.RelabelAction.LABELKEEP;
import static io.flightdeck.model.relabel.RelabelAction.LABELMAP;
import static io.flightdeck.model.relabel.RelabelAction.LOWERCASE;
import static io.flightdeck.model.relabel.RelabelAction.REPLACE;
import static io.flightdeck.model.relabel.RelabelAction.UPPERCASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RelabelConfigTest {

  private static RelabelConfig.Builder step() {
    return RelabelConfig.builder();
  }

  private static void rejects(RelabelConfig.Builder builder, String message) {
    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void defaultsAreThoseOfPrometheus() {
    RelabelConfig c = step().targetLabel("t").build();
    assertThat(c.separator()).isEqualTo(";");
    assertThat(c.regex().source()).isEqualTo("(.*)");
    assertThat(c.replacement()).isEqualTo("$1");
    assertThat(c.action()).isEqualTo(REPLACE);
    assertThat(c.modulus()).isZero();
    assertThat(c.sourceLabels()).isEmpty();
  }

  @Test
  void actionRequired() {
    rejects(step().action(null), "relabel action cannot be empty");
  }

  @Test
  void targetLabelRequired() {
    rejects(step(), "relabel configuration for replace action requires 'target_label' value");
    rejects(
        step().action(LOWERCASE),
        "relabel configuration for lowercase action requires 'target_label' value");
    rejects(
        step().action(UPPERCASE),
        "relabel configuration for uppercase action requires 'target_label' value");
    rejects(
        step().action(KEEPEQUAL),
        "relabel configuration for keepequal action requires 'target_label' value");
    rejects(
        step().action(DROPEQUAL),
        "relabel configuration for dropequal action requires 'target_label' value");
    rejects(
        step().action(HASHMOD).modulus(2),
        "relabel configuration for hashmod action requires 'target_label' value");
  }

  @Test
  void hashmodNeedsModulus() {
    rejects(
        step().action(HASHMOD).targetLabel("x"),
        "relabel configuration for hashmod requires non-zero modulus");
    rejects(
        step().action(HASHMOD).modulus(3).targetLabel("x-y"),
        "\"x-y\" is invalid 'target_label' for hashmod action");
  }

  @Test
  void replaceTargetMayHoldGroupReferences() {
    step().sourceLabels("a").regex("some-([^-]+)-([^,]+)").targetLabel("${3}").build();
    rejects(
        step().sourceLabels("a").regex("some-([^-]+)-([^,]+)").targetLabel("0${3}"),
        "\"0${3}\" is invalid 'target_label' for replace action");
    rejects(
        step().sourceLabels("a").regex("some-([^-]+)-([^,]+)").targetLabel("-${3}"),
        "\"-${3}\" is invalid 'target_label' for replace action");
    rejects(step().targetLabel("a-b"), "\"a-b\" is invalid 'target_label' for replace action");
  }

  @Test
  void caseActionsTakeAPlainTargetAndNoReplacement() {
    rejects(
        step().action(LOWERCASE).targetLabel("${3}"),
        "\"${3}\" is invalid 'target_label' for lowercase action");
    rejects(
        step().action(UPPERCASE).targetLabel("x").replacement("y"),
        "'replacement' can not be set for uppercase action");
  }

  @Test
  void equalActionsTakeOnlySourcesAndTarget() {
    step().action(KEEPEQUAL).sourceLabels("a").targetLabel("b").build();
    rejects(
        step().action(KEEPEQUAL).sourceLabels("a").targetLabel("b").regex("x"),
        "keepequal action requires only 'source_labels' and `target_label`, and no other fields");
    rejects(
        step().action(DROPEQUAL).sourceLabels("a").targetLabel("b").separator(","),
        "dropequal action requires only 'source_labels' and `target_label`, and no other fields");
    rejects(
        step().action(DROPEQUAL).sourceLabels("a").targetLabel("b").modulus(2),
        "dropequal action requires only 'source_labels' and `target_label`, and no other fields");
  }

  @Test
  void labelDropAndKeepTakeOnlyRegex() {
    step().action(LABELDROP).regex("a.*").build();
    rejects(
        step().action(LABELDROP).sourceLabels("x"),
        "labeldrop action requires only 'regex', and no other fields");
    rejects(
        step().action(LABELKEEP).targetLabel("x"),
        "labelkeep action requires only 'regex', and no other fields");
    rejects(
        step().action(LABELKEEP).replacement("x"),
        "labelkeep action requires only 'regex', and no other fields");
  }

  @Test
  void labelmapReplacementMustBeALabelNameTemplate() {
    step().action(LABELMAP).regex("__meta_(.+)").replacement("k8s_$1").build();
    rejects(
        step().action(LABELMAP).replacement("-$1"),
        "\"-$1\" is invalid 'replacement' for labelmap action");
  }

  @Test
  void invalidRegexHasGosMessage() {
    assertThatThrownBy(() -> RelabelRegex.of("a("))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: missing closing ): `^(?:a()$`");
  }

  @Test
  void unknownActionHasPrometheusMessage() {
    assertThat(RelabelAction.parse("LabelMap")).isEqualTo(LABELMAP);
    assertThatThrownBy(() -> RelabelAction.parse("foo"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown relabel action \"foo\"");
  }

  @ParameterizedTest(name = "{0} valid={1}")
  @CsvSource({
    "-label,false",
    "label,true",
    "label${1},true",
    "${1}label,true",
    "${1},true",
    "'${',false",
    "$,false",
    "'${}',false",
    "'foo${',false",
    "$1,true",
    "asd$2asd,true",
    "-foo${1}bar-,false",
    "_${1}_,true",
    "foo${bar}foo,true",
  })
  void targetLabelTemplates(String name, boolean valid) {
    assertThat(LabelNames.isValidTemplate(name)).isEqualTo(valid);
  }
}
