package io.flightdeck.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.UncheckedIOException;

/** Plain maps and lists as YAML, strings quoted where YAML needs it. */
final class Yaml {
  private static final ObjectMapper MAPPER =
      new ObjectMapper(
          YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

  private Yaml() {}

  static String write(Object tree) {
    try {
      return MAPPER.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
