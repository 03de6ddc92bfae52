package io.flightdeck.dashboards;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which variables each variable's definition refers to, and the order to resolve them in: a
 * variable after every variable its query or regex uses. A cycle is refused, named.
 */
public final class VariableGraph {
  private VariableGraph() {}

  /** The variables in an order where each comes after those it depends on. */
  public static List<Variable> resolutionOrder(List<Variable> variables) {
    return order(variables, "$.templating.list");
  }

  static void checkAcyclic(List<Variable> variables, String listPath) {
    order(variables, listPath);
  }

  /** The names of other variables of {@code all} that {@code variable} refers to. */
  public static List<String> dependencies(Variable variable, List<Variable> all) {
    List<String> out = new ArrayList<>();
    String text = variable.query() + "\n" + variable.regex();
    for (Variable other : all) {
      if (!other.name().equals(variable.name())
          && Interpolator.references(text).contains(other.name())) {
        out.add(other.name());
      }
    }
    return out;
  }

  private static List<Variable> order(List<Variable> variables, String listPath) {
    Map<String, Variable> byName = new LinkedHashMap<>();
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < variables.size(); i++) {
      byName.put(variables.get(i).name(), variables.get(i));
      index.put(variables.get(i).name(), i);
    }
    Map<String, Integer> state = new HashMap<>(); // 1 visiting, 2 done
    List<Variable> ordered = new ArrayList<>();
    for (Variable variable : variables) {
      visit(variable, variables, byName, index, state, new ArrayList<>(), ordered, listPath);
    }
    return ordered;
  }

  private static void visit(
      Variable variable,
      List<Variable> all,
      Map<String, Variable> byName,
      Map<String, Integer> index,
      Map<String, Integer> state,
      List<String> stack,
      List<Variable> ordered,
      String listPath) {
    Integer seen = state.get(variable.name());
    if (seen != null && seen == 2) {
      return;
    }
    if (seen != null) {
      List<String> cycle =
          new ArrayList<>(stack.subList(stack.indexOf(variable.name()), stack.size()));
      cycle.add(variable.name());
      throw new DashboardFormatException(
          Json.path(listPath, index.get(variable.name())),
          "variable cycle: " + String.join(" → ", cycle.stream().map(n -> "$" + n).toList()));
    }
    state.put(variable.name(), 1);
    stack.add(variable.name());
    for (String dependency : dependencies(variable, all)) {
      visit(byName.get(dependency), all, byName, index, state, stack, ordered, listPath);
    }
    stack.remove(stack.size() - 1);
    state.put(variable.name(), 2);
    ordered.add(variable);
  }
}
