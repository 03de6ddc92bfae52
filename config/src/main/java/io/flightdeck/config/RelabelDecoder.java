package io.flightdeck.config;

import io.flightdeck.model.GoQuote;
import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.model.relabel.RelabelAction;
import io.flightdeck.model.relabel.RelabelConfig;
import io.flightdeck.model.relabel.RelabelRegex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Decodes lists of {@code relabel_config}; validation is {@link RelabelConfig}'s own. */
final class RelabelDecoder {
  private static final Set<String> FIELDS =
      Set.of(
          "source_labels",
          "separator",
          "regex",
          "modulus",
          "target_label",
          "replacement",
          "action");

  private RelabelDecoder() {}

  /**
   * @param nullMessage Prometheus's message for a null entry in this list
   */
  static List<RelabelConfig> decodeAll(Node node, String nullMessage) {
    List<RelabelConfig> configs = new ArrayList<>();
    for (Node item : node.items("[]*relabel.Config")) {
      if (item.isNull()) {
        throw item.error(nullMessage);
      }
      configs.add(decode(item));
    }
    return configs;
  }

  private static RelabelConfig decode(Node node) {
    Node.Fields f = node.fields("relabel.Config", FIELDS);
    RelabelConfig.Builder b = RelabelConfig.builder();
    Node sources = f.get("source_labels");
    List<String> names = sources.strings();
    for (String name : names) {
      if (!LabelNameSyntax.isLegacy(name)) {
        throw sources.error(GoQuote.quote(name) + " is not a valid label name");
      }
    }
    b.sourceLabels(names);
    b.separator(f.get("separator").string(RelabelConfig.DEFAULT_SEPARATOR));
    Node regex = f.get("regex");
    if (regex.isNull()) {
      // As in Prometheus: an absent regex is (.*), an explicit null matches only "".
      b.regex(regex.isAbsent() ? RelabelRegex.DEFAULT : RelabelRegex.of(""));
    } else {
      try {
        b.regex(RelabelRegex.of(regex.string()));
      } catch (IllegalArgumentException e) {
        throw regex.error(e.getMessage());
      }
    }
    b.modulus(f.get("modulus").unsigned());
    b.targetLabel(f.get("target_label").string());
    b.replacement(f.get("replacement").string(RelabelConfig.DEFAULT_REPLACEMENT));
    Node action = f.get("action");
    if (action.isNull()) {
      b.action(action.isAbsent() ? RelabelAction.REPLACE : null);
    } else {
      try {
        b.action(RelabelAction.parse(action.string()));
      } catch (IllegalArgumentException e) {
        throw action.error(e.getMessage());
      }
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw node.error(e.getMessage());
    }
  }
}
