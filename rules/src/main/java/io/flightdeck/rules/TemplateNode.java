package io.flightdeck.rules;

import java.util.List;

/** The syntax tree of a template: the subset of Go's text/template that rule authors use. */
sealed interface TemplateNode {
  record Text(String text) implements TemplateNode {}

  /** {@code {{ pipeline }}}: prints the result unless the pipeline declares variables. */
  record Action(int line, Pipeline pipeline) implements TemplateNode {}

  /** {@code if}, {@code with} and {@code range}; {@code otherwise} is the else branch or empty. */
  record Branch(
      Kind kind, int line, Pipeline pipeline, List<TemplateNode> body, List<TemplateNode> otherwise)
      implements TemplateNode {}

  enum Kind {
    IF,
    WITH,
    RANGE
  }

  /** Commands joined by {@code |}; {@code variables} are declared with := or assigned with =. */
  record Pipeline(List<String> variables, boolean declare, List<Command> commands) {}

  record Command(List<Operand> operands) {}

  sealed interface Operand {}

  /** A field chain on dot ({@code .Labels.job}); an empty chain is dot itself. */
  record Field(List<String> names) implements Operand {}

  /** A variable with an optional field chain ({@code $labels.job}). */
  record Variable(String name, List<String> names) implements Operand {}

  /** A function name. */
  record Function(String name) implements Operand {}

  /** A string, number, boolean or nil constant. */
  record Constant(Object value) implements Operand {}

  /** A parenthesised pipeline, possibly followed by fields. */
  record Nested(Pipeline pipeline, List<String> names) implements Operand {}
}
