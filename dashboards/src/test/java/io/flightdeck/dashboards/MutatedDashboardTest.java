package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The DCGM dashboard with one field of the wrong type: each is refused with a
 * DashboardFormatException naming that field, never another exception.
 */
class MutatedDashboardTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiterString = " := ",
      value = {
        "/panels/0/targets := \"x\" := $.panels[0].targets",
        "/panels/0/targets/0 := 7 := $.panels[0].targets[0]",
        "/panels/0/yaxes := \"x\" := $.panels[0].yaxes",
        "/panels/0/legend := 5 := $.panels[0].legend",
        "/panels/0/seriesOverrides := [5] := $.panels[0].seriesOverrides[0]",
        "/panels/0/gridPos/x := \"left\" := $.panels[0].gridPos.x",
        "/panels/1/options := \"x\" := $.panels[1].options",
        "/panels/1/fieldConfig := [] := $.panels[1].fieldConfig",
        "/templating := [] := $.templating",
        "/templating/list/1/query := [] := $.templating.list[1].query",
        "/templating/list/1/name := \"\" := $.templating.list[1].name",
        "/annotations/list := {} := $.annotations.list",
        "/time := \"now\" := $.time",
        "/tags := {} := $.tags",
        "/links := [1] := $.links[0]",
        "/refresh := {} := $.refresh",
        "/title := [] := $.title",
      })
  void aFieldOfTheWrongTypeIsNamed(String pointer, String json, String path) throws Exception {
    ObjectNode root = (ObjectNode) MAPPER.readTree(DcgmDashboardTest.fixture());
    JsonNode value = MAPPER.readTree(json);
    int cut = pointer.lastIndexOf('/');
    JsonNode parent = root.at(pointer.substring(0, cut));
    String field = pointer.substring(cut + 1);
    if (parent.isArray()) {
      ((com.fasterxml.jackson.databind.node.ArrayNode) parent).set(Integer.parseInt(field), value);
    } else {
      ((ObjectNode) parent).set(field, value);
    }
    Throwable thrown =
        catchThrowable(
            () ->
                DashboardImporter.importDocument(root.toString().getBytes(StandardCharsets.UTF_8)));
    assertThat(thrown).isInstanceOf(DashboardFormatException.class);
    assertThat(((DashboardFormatException) thrown).path()).isEqualTo(path);
  }
}
