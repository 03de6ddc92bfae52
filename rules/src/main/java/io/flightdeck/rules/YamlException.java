package io.flightdeck.rules;

import java.util.List;

/** A YAML file that cannot be read into the expected shape; the message is Go yaml's wording. */
final class YamlException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  YamlException(String message) {
    super(message);
  }

  /** Go yaml's summary of field-level problems: one indented line per problem. */
  static YamlException unmarshal(List<String> problems) {
    return new YamlException("yaml: unmarshal errors:\n  " + String.join("\n  ", problems));
  }
}
