package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Every kind of bad document is refused with what is wrong and where. */
class BadInputTest {
  private static DashboardFormatException refused(String document) {
    return refused(document.getBytes(StandardCharsets.UTF_8));
  }

  private static DashboardFormatException refused(byte[] document) {
    try {
      DashboardImporter.importDocument(document);
    } catch (DashboardFormatException e) {
      return e;
    }
    throw new AssertionError(
        "accepted: "
            + new String(document, 0, Math.min(200, document.length), StandardCharsets.UTF_8));
  }

  @Test
  void malformedJsonNamesLineAndColumn() {
    DashboardFormatException e = refused("{\"title\": \"x\",\n \"panels\": [}");
    assertThat(e.path()).isEqualTo("line 2, column 13");
    assertThat(e.getMessage()).startsWith("at line 2, column 13: malformed JSON");
  }

  @Test
  void malformedYamlToo() {
    assertThat(refused("kind: Dashboard\nspec: [unclosed\n").getMessage())
        .contains("malformed YAML");
  }

  @Test
  void aDocumentThatIsNoDashboardIsNamedSo() {
    assertThat(refused("{\"hello\": 1}").getMessage()).contains("not a dashboard");
    assertThat(refused("[1, 2]").getMessage())
        .contains("a dashboard is a JSON object, not an array");
    assertThat(refused("").getMessage()).contains("empty");
    assertThat(refused("{\"kind\": \"Datasource\", \"spec\": {}}").getMessage())
        .isEqualTo("at $.kind: expected Dashboard, got \"Datasource\"");
  }

  @Test
  void wrongTypesAreNamedByPath() {
    assertThat(refused("{\"schemaVersion\": 30, \"panels\": \"none\"}").getMessage())
        .isEqualTo("at $.panels: expected an array, got a string");
    assertThat(
            refused(
                    "{\"schemaVersion\": 30, \"panels\": [{\"type\": \"stat\", \"gridPos\": \"top\"}]}")
                .getMessage())
        .isEqualTo("at $.panels[0].gridPos: expected an object, got a string");
    assertThat(
            refused(
                    "{\"schemaVersion\": 30, \"panels\": [{\"type\": \"stat\", \"gridPos\": {\"x\": 0,"
                        + " \"y\": 0, \"w\": 0, \"h\": 4}}]}")
                .getMessage())
        .contains("$.panels[0].gridPos");
    assertThat(
            refused(
                    "{\"schemaVersion\": 30, \"panels\": [{\"type\": \"graph\", \"gridPos\": {\"x\": 0,"
                        + " \"y\": 0, \"w\": 6, \"h\": 4}, \"targets\": [{\"expr\": \"up\","
                        + " \"intervalFactor\": \"two\"}]}]}")
                .getMessage())
        .isEqualTo("at $.panels[0].targets[0].intervalFactor: expected a number, got \"two\"");
  }

  @Test
  void oldSchemasAreConvertedAndRefusedOnlyWhenTheyHaveNoLayout() {
    ImportResult empty =
        DashboardImporter.importDocument(
            "{\"schemaVersion\": 14, \"rows\": []}".getBytes(StandardCharsets.UTF_8));
    assertThat(empty.dashboard().panels()).isEmpty();
    assertThat(empty.report().warnings())
        .anyMatch(warning -> warning.contains("converted from schemaVersion 14 to 16"));
    assertThat(refused("{\"schemaVersion\": 14, \"title\": \"t\"}").getMessage())
        .isEqualTo(
            "at $.rows: missing: a dashboard of schemaVersion 14 keeps its panels in rows, and"
                + " this one has neither rows nor panels");
    assertThat(refused("{\"panels\": []}").getMessage())
        .contains("$.schemaVersion")
        .contains("missing");
  }

  @Test
  void aNewerSchemaIsImportedWithAWarning() {
    ImportResult result =
        DashboardImporter.importDocument(
            "{\"schemaVersion\": 99, \"title\": \"t\", \"panels\": []}"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(result.report().warnings()).anySatisfy(w -> assertThat(w).contains("99"));
  }

  @Test
  void aVariableCycleIsNamed() {
    String cycle =
        "{\"schemaVersion\": 30, \"templating\": {\"list\": ["
            + "{\"name\": \"a\", \"type\": \"query\", \"query\": \"label_values(up{x=\\\"$c\\\"}, a)\"},"
            + "{\"name\": \"b\", \"type\": \"query\", \"query\": \"label_values(up{x=\\\"$a\\\"}, b)\"},"
            + "{\"name\": \"c\", \"type\": \"query\", \"query\": \"label_values(up{x=\\\"${b}\\\"}, c)\"}]}}";
    DashboardFormatException e = refused(cycle);
    assertThat(e.path()).isEqualTo("$.templating.list[0]");
    assertThat(e.getMessage()).contains("variable cycle: $a → $c → $b → $a");
  }

  @Test
  void aVariableDefinedTwiceIsRefused() {
    String twice =
        "{\"schemaVersion\": 30, \"templating\": {\"list\": [{\"name\": \"a\", \"type\": \"custom\"},"
            + " {\"name\": \"a\", \"type\": \"textbox\"}]}}";
    assertThat(refused(twice).getMessage())
        .isEqualTo("at $.templating.list[1].name: variable \"a\" is defined twice");
  }

  @Test
  void aFiftyMegabyteFileIsRefusedBeforeParsing() {
    byte[] huge = new byte[50 * 1024 * 1024];
    Arrays.fill(huge, (byte) ' ');
    huge[0] = '{';
    huge[huge.length - 1] = '}';
    assertThat(refused(huge).getMessage())
        .contains("52,428,800 bytes")
        .contains("more than the limit");
  }

  @Test
  void deepNestingIsRefused() {
    String deep = "{\"schemaVersion\": 30, \"x\": " + "[".repeat(5000) + "]".repeat(5000) + "}";
    assertThat(refused(deep).getMessage()).contains("malformed JSON").contains("nesting");
  }

  @Test
  void aBadUidIsRefused() {
    assertThat(refused("{\"schemaVersion\": 30, \"uid\": \"a/b\"}").getMessage())
        .startsWith("at $.uid: \"a/b\" is not a valid uid");
  }

  @Test
  void aPersesLayoutMustReferToRealPanels() {
    String perses =
        "{\"kind\": \"Dashboard\", \"metadata\": {\"name\": \"p\"}, \"spec\": {\"panels\": {},"
            + " \"layouts\": [{\"kind\": \"Grid\", \"spec\": {\"items\": [{\"x\": 0, \"y\": 0,"
            + " \"width\": 4, \"height\": 4, \"content\": {\"$ref\": \"#/spec/panels/gone\"}}]}}]}}";
    assertThat(refused(perses).getMessage())
        .isEqualTo(
            "at $.spec.layouts[0].spec.items[0].content.$ref: no panel \"#/spec/panels/gone\" in spec.panels");
  }

  @Test
  void anUnknownPanelTypeIsAPlaceholderNotAnError() {
    ImportResult result =
        DashboardImporter.importDocument(
            ("{\"schemaVersion\": 30, \"panels\": [{\"id\": 3, \"type\": \"worldmap-panel\","
                    + " \"title\": \"Map\", \"gridPos\": {\"x\": 0, \"y\": 0, \"w\": 6, \"h\": 4}}]}")
                .getBytes(StandardCharsets.UTF_8));
    Panel panel = result.dashboard().panels().get("3");
    assertThat(panel.kind()).isEqualTo(PanelKinds.UNSUPPORTED);
    assertThat(panel.options().path("message").asText())
        .isEqualTo("panel type \"worldmap-panel\" is not supported");
    assertThat(result.report().unsupported())
        .extracting(ImportReport.UnsupportedField::path)
        .containsExactly("$.panels[0]");
  }
}
