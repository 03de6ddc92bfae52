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

import io.flightdeck.model.GoQuote;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One relabelling step, as in Prometheus's {@code relabel_config}. The constructor applies
 * Prometheus's validation and throws {@link IllegalArgumentException} with its messages; build one
 * with {@link #builder()} to start from Prometheus's defaults.
 *
 * @param sourceLabels labels whose values are joined with {@code separator}; empty when absent
 * @param modulus for {@code hashmod}, taken as an unsigned 64-bit number; 0 when absent
 * @param targetLabel empty when absent
 */
public record RelabelConfig(
    List<String> sourceLabels,
    String separator,
    RelabelRegex regex,
    long modulus,
    String targetLabel,
    String replacement,
    RelabelAction action) {

  public static final String DEFAULT_SEPARATOR = ";";
  public static final String DEFAULT_REPLACEMENT = "$1";

  private static final Set<RelabelAction> NEED_TARGET =
      EnumSet.of(REPLACE, HASHMOD, LOWERCASE, UPPERCASE, KEEPEQUAL, DROPEQUAL);
  private static final Set<RelabelAction> PLAIN_TARGET =
      EnumSet.of(LOWERCASE, UPPERCASE, KEEPEQUAL, DROPEQUAL);

  public RelabelConfig {
    sourceLabels = List.copyOf(sourceLabels);
    Objects.requireNonNull(separator, "separator");
    Objects.requireNonNull(regex, "regex");
    Objects.requireNonNull(targetLabel, "targetLabel");
    Objects.requireNonNull(replacement, "replacement");
    String problem =
        problem(sourceLabels, separator, regex, modulus, targetLabel, replacement, action);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Prometheus's checks in its order; null when the step is valid. */
  private static String problem(
      List<String> sourceLabels,
      String separator,
      RelabelRegex regex,
      long modulus,
      String targetLabel,
      String replacement,
      RelabelAction action) {
    if (action == null) {
      return "relabel action cannot be empty";
    }
    if (modulus == 0 && action == HASHMOD) {
      return "relabel configuration for hashmod requires non-zero modulus";
    }
    if (NEED_TARGET.contains(action) && targetLabel.isEmpty()) {
      return "relabel configuration for " + action + " action requires 'target_label' value";
    }
    boolean templated = Template.hasReference(targetLabel);
    if (action == REPLACE
        && (templated
            ? !LabelNames.isValidTemplate(targetLabel)
            : !LabelNames.isValid(targetLabel))) {
      return invalid("target_label", targetLabel, action);
    }
    if (PLAIN_TARGET.contains(action) && !LabelNames.isValid(targetLabel)) {
      return invalid("target_label", targetLabel, action);
    }
    if (PLAIN_TARGET.contains(action) && !replacement.equals(DEFAULT_REPLACEMENT)) {
      return "'replacement' can not be set for " + action + " action";
    }
    if (action == LABELMAP && !LabelNames.isValidTemplate(replacement)) {
      return invalid("replacement", replacement, action);
    }
    if (action == HASHMOD && !LabelNames.isValid(targetLabel)) {
      return invalid("target_label", targetLabel, action);
    }
    if ((action == DROPEQUAL || action == KEEPEQUAL)
        && (!regex.equals(RelabelRegex.DEFAULT)
            || modulus != 0
            || !separator.equals(DEFAULT_SEPARATOR)
            || !replacement.equals(DEFAULT_REPLACEMENT))) {
      return action
          + " action requires only 'source_labels' and `target_label`, and no other fields";
    }
    if ((action == LABELDROP || action == LABELKEEP)
        && (!sourceLabels.isEmpty()
            || !targetLabel.isEmpty()
            || modulus != 0
            || !separator.equals(DEFAULT_SEPARATOR)
            || !replacement.equals(DEFAULT_REPLACEMENT))) {
      return action + " action requires only 'regex', and no other fields";
    }
    return null;
  }

  private static String invalid(String field, String value, RelabelAction action) {
    return GoQuote.quote(value) + " is invalid '" + field + "' for " + action + " action";
  }

  /** Starts from Prometheus's defaults: separator ";", regex "(.*)", replacement "$1", replace. */
  public static final class Builder {
    private final List<String> sourceLabels = new ArrayList<>();
    private String separator = DEFAULT_SEPARATOR;
    private RelabelRegex regex = RelabelRegex.DEFAULT;
    private long modulus;
    private String targetLabel = "";
    private String replacement = DEFAULT_REPLACEMENT;
    private RelabelAction action = REPLACE;

    private Builder() {}

    public Builder sourceLabels(String... names) {
      return sourceLabels(List.of(names));
    }

    public Builder sourceLabels(List<String> names) {
      sourceLabels.clear();
      sourceLabels.addAll(names);
      return this;
    }

    public Builder separator(String separator) {
      this.separator = separator;
      return this;
    }

    public Builder regex(String regex) {
      return regex(RelabelRegex.of(regex));
    }

    public Builder regex(RelabelRegex regex) {
      this.regex = regex;
      return this;
    }

    public Builder modulus(long modulus) {
      this.modulus = modulus;
      return this;
    }

    public Builder targetLabel(String targetLabel) {
      this.targetLabel = targetLabel;
      return this;
    }

    public Builder replacement(String replacement) {
      this.replacement = replacement;
      return this;
    }

    public Builder action(RelabelAction action) {
      this.action = action;
      return this;
    }

    /**
     * @throws IllegalArgumentException when the step fails Prometheus's validation
     */
    public RelabelConfig build() {
      return new RelabelConfig(
          sourceLabels, separator, regex, modulus, targetLabel, replacement, action);
    }
  }
}
