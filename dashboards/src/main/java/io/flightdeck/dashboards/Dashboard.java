package io.flightdeck.dashboards;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One dashboard, whatever format it came from: panels by id, a layout that places them in sections
 * (rows), variables, annotations, time settings and links. Immutable; two dashboards are equal when
 * everything the model knows is equal, which is what import, export, import keeps.
 */
public record Dashboard(
    String uid,
    String title,
    String description,
    List<String> tags,
    TimeSettings time,
    Map<String, Panel> panels,
    List<LayoutSection> layout,
    List<Variable> variables,
    List<Annotation> annotations,
    List<DashboardLink> links) {

  public Dashboard {
    uid = Text.orEmpty(uid);
    title = Text.orEmpty(title);
    description = Text.orEmpty(description);
    tags = tags == null ? List.of() : List.copyOf(tags);
    time = time == null ? TimeSettings.DEFAULT : time;
    panels = panels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(panels));
    layout = layout == null ? List.of() : List.copyOf(layout);
    variables = variables == null ? List.of() : List.copyOf(variables);
    annotations = annotations == null ? List.of() : List.copyOf(annotations);
    links = links == null ? List.of() : List.copyOf(links);
  }

  /** The same dashboard under another uid. */
  public Dashboard withUid(String newUid) {
    return new Dashboard(
        newUid, title, description, tags, time, panels, layout, variables, annotations, links);
  }

  /** How many queries all panels hold. */
  @JsonIgnore
  public int queryCount() {
    return panels.values().stream().mapToInt(p -> p.queries().size()).sum();
  }
}
