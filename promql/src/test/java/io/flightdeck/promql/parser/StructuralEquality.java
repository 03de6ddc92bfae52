package io.flightdeck.promql.parser;

import java.lang.reflect.RecordComponent;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Compares syntax trees component by component, ignoring where in the query nodes were and the
 * order of a selector's matchers (which the printer sorts, as Prometheus's does).
 */
final class StructuralEquality {
  private static final Set<String> POSITIONS = Set.of("position");

  private StructuralEquality() {}

  static boolean equal(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.getClass() != b.getClass()) {
      return false;
    }
    if (a instanceof Double x) {
      return Double.compare(x, (Double) b) == 0;
    }
    if (a instanceof List<?> x) {
      List<?> y = (List<?>) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!equal(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (!a.getClass().isRecord() || a instanceof FunctionSignature) {
      return a.equals(b);
    }
    for (RecordComponent c : a.getClass().getRecordComponents()) {
      if (POSITIONS.contains(c.getName())) {
        continue;
      }
      try {
        Object x = c.getAccessor().invoke(a);
        Object y = c.getAccessor().invoke(b);
        if (c.getName().equals("matchers")) {
          x = sortedByText((List<?>) x);
          y = sortedByText((List<?>) y);
        }
        if (!equal(x, y)) {
          return false;
        }
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    return true;
  }

  private static List<?> sortedByText(List<?> items) {
    return items.stream().sorted(Comparator.comparing(Object::toString)).toList();
  }
}
