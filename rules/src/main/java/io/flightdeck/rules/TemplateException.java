package io.flightdeck.rules;

/**
 * A template that does not parse or fails while running. The message follows Go's text/template:
 * {@code template: NAME:LINE: problem}.
 */
final class TemplateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TemplateException(String message) {
    super(message);
  }
}
