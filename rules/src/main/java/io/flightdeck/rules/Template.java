package io.flightdeck.rules;

import io.flightdeck.rules.TemplateNode.Branch;
import io.flightdeck.rules.TemplateNode.Command;
import io.flightdeck.rules.TemplateNode.Operand;
import io.flightdeck.rules.TemplateNode.Pipeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A parsed label or annotation template. Immutable and thread-safe; {@link #expand} runs it against
 * one alert's data. Missing map keys print as the empty string, as in Prometheus.
 */
final class Template {
  /** The variables Prometheus declares before every alert template. */
  private static final Set<String> PREDECLARED =
      Set.of("$", "$labels", "$externalLabels", "$externalURL", "$value");

  private final String name;
  private final List<TemplateNode> nodes;

  private Template(String name, List<TemplateNode> nodes) {
    this.name = name;
    this.nodes = nodes;
  }

  /**
   * @throws TemplateException with Go's {@code template: NAME:LINE: problem}
   */
  static Template parse(String name, String text) {
    return new Template(name, TemplateParser.parse(name, text, PREDECLARED));
  }

  /** Runs the template; a failure is reported with Prometheus's "error executing" wording. */
  String expand(TemplateData data) {
    Map<String, Object> dot = new HashMap<>();
    dot.put("Labels", data.labels());
    dot.put("ExternalLabels", data.externalLabels());
    dot.put("ExternalURL", data.externalURL());
    dot.put("Value", data.value());
    Run run = new Run(data);
    run.scopes.add(new HashMap<>());
    run.scopes.getFirst().put("$", dot);
    run.scopes.getFirst().put("$labels", data.labels());
    run.scopes.getFirst().put("$externalLabels", data.externalLabels());
    run.scopes.getFirst().put("$externalURL", data.externalURL());
    run.scopes.getFirst().put("$value", data.value());
    StringBuilder out = new StringBuilder();
    run.list(nodes, dot, out);
    return out.toString();
  }

  /** Go's truth: false, zero, nil and empty values are false. */
  static boolean truth(Object v) {
    return switch (v) {
      case null -> false;
      case Boolean b -> b;
      case Double d -> d != 0;
      case Long l -> l != 0;
      case String s -> !s.isEmpty();
      case Map<?, ?> m -> !m.isEmpty();
      case List<?> l -> !l.isEmpty();
      default -> true;
    };
  }

  /** One execution: variable scopes and the data for functions. */
  private final class Run {
    private final TemplateData data;
    private final List<Map<String, Object>> scopes = new ArrayList<>();
    private int line;

    Run(TemplateData data) {
      this.data = data;
    }

    void list(List<TemplateNode> list, Object dot, StringBuilder out) {
      for (TemplateNode node : list) {
        switch (node) {
          case TemplateNode.Text t -> out.append(t.text());
          case TemplateNode.Action a -> {
            line = a.line();
            Object v = pipeline(a.pipeline(), dot);
            if (a.pipeline().variables().isEmpty()) {
              out.append(GoFormat.value(v));
            }
          }
          case Branch b -> branch(b, dot, out);
        }
      }
    }

    private void branch(Branch b, Object dot, StringBuilder out) {
      line = b.line();
      scopes.add(new HashMap<>());
      try {
        Object v = pipeline(b.pipeline(), dot);
        switch (b.kind()) {
          case IF -> list(truth(v) ? b.body() : b.otherwise(), dot, out);
          case WITH -> list(truth(v) ? b.body() : b.otherwise(), truth(v) ? v : dot, out);
          case RANGE -> range(b, v, dot, out);
        }
      } finally {
        scopes.removeLast();
      }
    }

    private void range(Branch b, Object v, Object dot, StringBuilder out) {
      List<Map.Entry<Object, Object>> items = new ArrayList<>();
      switch (v) {
        case null -> {}
        case List<?> l -> {
          for (int i = 0; i < l.size(); i++) {
            items.add(Map.entry((long) i, l.get(i)));
          }
        }
        case Map<?, ?> m -> new TreeMap<>(m).forEach((k, x) -> items.add(Map.entry(k, x)));
        default -> throw failure("range can't iterate over " + GoFormat.value(v));
      }
      if (items.isEmpty()) {
        list(b.otherwise(), dot, out);
        return;
      }
      List<String> vars = b.pipeline().variables();
      for (Map.Entry<Object, Object> item : items) {
        if (vars.size() == 1) {
          set(vars.getFirst(), item.getValue(), true);
        } else if (vars.size() == 2) {
          set(vars.get(0), item.getKey(), true);
          set(vars.get(1), item.getValue(), true);
        }
        list(b.body(), item.getValue(), out);
      }
    }

    private Object pipeline(Pipeline p, Object dot) {
      Object value = null;
      boolean first = true;
      for (Command c : p.commands()) {
        value = command(c, dot, first ? null : new Object[] {value});
        first = false;
      }
      if (p.variables().size() == 1) {
        set(p.variables().getFirst(), value, p.declare());
      }
      return value;
    }

    private Object command(Command c, Object dot, Object[] piped) {
      Operand head = c.operands().getFirst();
      if (head instanceof TemplateNode.Function f) {
        List<Object> args = new ArrayList<>();
        for (Operand o : c.operands().subList(1, c.operands().size())) {
          args.add(operand(o, dot));
        }
        if (piped != null) {
          args.add(piped[0]);
        }
        try {
          return TemplateFunctions.call(f.name(), args, data);
        } catch (TemplateException e) {
          throw failure("error calling " + f.name() + ": " + e.getMessage());
        }
      }
      if (c.operands().size() > 1 || piped != null) {
        throw failure("can't give argument to non-function " + describe(head));
      }
      return operand(head, dot);
    }

    private Object operand(Operand o, Object dot) {
      return switch (o) {
        case TemplateNode.Constant k -> k.value();
        case TemplateNode.Field f -> fields(dot, f.names());
        case TemplateNode.Variable v -> fields(get(v.name()), v.names());
        case TemplateNode.Nested n -> fields(pipeline(n.pipeline(), dot), n.names());
        case TemplateNode.Function f -> command(new Command(List.of(f)), dot, null);
      };
    }

    private Object fields(Object receiver, List<String> names) {
      Object v = receiver;
      for (String field : names) {
        if (v instanceof Map<?, ?> m) {
          v = m.containsKey(field) ? m.get(field) : "";
        } else {
          throw failure("can't evaluate field " + field + " in type " + GoFormat.typeName(v));
        }
      }
      return v;
    }

    private Object get(String variable) {
      for (int i = scopes.size() - 1; i >= 0; i--) {
        if (scopes.get(i).containsKey(variable)) {
          return scopes.get(i).get(variable);
        }
      }
      throw failure("undefined variable: " + variable);
    }

    private void set(String variable, Object value, boolean declare) {
      if (!declare) {
        for (int i = scopes.size() - 1; i >= 0; i--) {
          if (scopes.get(i).containsKey(variable)) {
            scopes.get(i).put(variable, value);
            return;
          }
        }
      }
      scopes.getLast().put(variable, value);
    }

    private String describe(Operand o) {
      return switch (o) {
        case TemplateNode.Variable v ->
            v.name() + (v.names().isEmpty() ? "" : "." + String.join(".", v.names()));
        case TemplateNode.Field f -> "." + String.join(".", f.names());
        default -> o.toString();
      };
    }

    private TemplateException failure(String message) {
      return new TemplateException(
          "template: %s:%d: executing \"%s\": %s".formatted(name, line, name, message));
    }
  }
}
