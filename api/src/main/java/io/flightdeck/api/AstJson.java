package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.AtAnchor;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.ValueType;
import io.flightdeck.promql.parser.VectorMatching;
import io.flightdeck.promql.parser.VectorSelector;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The syntax tree as {@code /api/v1/parse_query} returns it, in the shape of Prometheus 3.9's
 * {@code translateAST}. Prometheus marshals Go maps, so every object's keys come sorted.
 */
final class AstJson {
  private AstJson() {}

  static void write(JsonGenerator out, Expr expr) throws IOException {
    if (expr == null) {
      out.writeNull();
      return;
    }
    out.writeStartObject();
    switch (expr) {
      case AggregateExpr e -> {
        field(out, "expr", e.expr());
        strings(out, "grouping", e.grouping());
        out.writeStringField("op", e.op().keyword());
        field(out, "param", e.param());
        out.writeStringField("type", "aggregation");
        out.writeBooleanField("without", e.without());
      }
      case BinaryExpr e -> {
        out.writeBooleanField("bool", e.returnBool());
        field(out, "lhs", e.lhs());
        out.writeFieldName("matching");
        matching(out, e.matching());
        out.writeStringField("op", e.op().symbol());
        field(out, "rhs", e.rhs());
        out.writeStringField("type", "binaryExpr");
      }
      case Call e -> {
        out.writeArrayFieldStart("args");
        for (Expr arg : e.args()) {
          write(out, arg);
        }
        out.writeEndArray();
        out.writeObjectFieldStart("func");
        out.writeArrayFieldStart("argTypes");
        for (ValueType type : e.function().argTypes()) {
          out.writeString(type.internalName());
        }
        out.writeEndArray();
        out.writeStringField("name", e.function().name());
        out.writeStringField("returnType", e.function().returnType().internalName());
        out.writeNumberField("variadic", e.function().variadic());
        out.writeEndObject();
        out.writeStringField("type", "call");
      }
      case MatrixSelector e -> {
        VectorSelector s = e.selector();
        out.writeBooleanField("anchored", s.anchored());
        matchers(out, s.matchers());
        out.writeStringField("name", s.name() == null ? "" : s.name());
        millis(out, "offset", s.originalOffset());
        millis(out, "range", e.range());
        out.writeBooleanField("smoothed", s.smoothed());
        startOrEnd(out, s.atAnchor());
        timestamp(out, s.timestamp());
        out.writeStringField("type", "matrixSelector");
      }
      case SubqueryExpr e -> {
        field(out, "expr", e.expr());
        millis(out, "offset", e.originalOffset());
        millis(out, "range", e.range());
        startOrEnd(out, e.atAnchor());
        millis(out, "step", e.step());
        timestamp(out, e.timestamp());
        out.writeStringField("type", "subquery");
      }
      case NumberLiteral e -> {
        out.writeStringField("type", "numberLiteral");
        out.writeStringField("val", GoFloats.plain(e.value()));
      }
      case ParenExpr e -> {
        field(out, "expr", e.expr());
        out.writeStringField("type", "parenExpr");
      }
      case StringLiteral e -> {
        out.writeStringField("type", "stringLiteral");
        out.writeStringField("val", e.value());
      }
      case UnaryExpr e -> {
        field(out, "expr", e.expr());
        out.writeStringField("op", e.op().symbol());
        out.writeStringField("type", "unaryExpr");
      }
      case VectorSelector e -> {
        out.writeBooleanField("anchored", e.anchored());
        matchers(out, e.matchers());
        out.writeStringField("name", e.name() == null ? "" : e.name());
        millis(out, "offset", e.originalOffset());
        out.writeBooleanField("smoothed", e.smoothed());
        startOrEnd(out, e.atAnchor());
        timestamp(out, e.timestamp());
        out.writeStringField("type", "vectorSelector");
      }
    }
    out.writeEndObject();
  }

  private static void field(JsonGenerator out, String name, Expr expr) throws IOException {
    out.writeFieldName(name);
    write(out, expr);
  }

  private static void matching(JsonGenerator out, VectorMatching m) throws IOException {
    if (m == null) {
      out.writeNull();
      return;
    }
    out.writeStartObject();
    out.writeStringField(
        "card", m.cardinality().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
    strings(out, "include", m.include());
    strings(out, "labels", m.matchingLabels());
    out.writeBooleanField("on", m.on());
    out.writeEndObject();
  }

  private static void matchers(JsonGenerator out, List<Matcher> matchers) throws IOException {
    out.writeArrayFieldStart("matchers");
    for (Matcher m : matchers) {
      out.writeStartObject();
      out.writeStringField("name", m.name());
      out.writeStringField("type", m.type().symbol());
      out.writeStringField("value", m.value());
      out.writeEndObject();
    }
    out.writeEndArray();
  }

  private static void strings(JsonGenerator out, String name, List<String> values)
      throws IOException {
    out.writeFieldName(name);
    ApiJson.strings(out, values);
  }

  private static void millis(JsonGenerator out, String name, Duration d) throws IOException {
    out.writeNumberField(name, d == null ? 0 : d.toMillis());
  }

  private static void startOrEnd(JsonGenerator out, AtAnchor anchor) throws IOException {
    if (anchor == null) {
      out.writeNullField("startOrEnd");
    } else {
      out.writeStringField("startOrEnd", anchor == AtAnchor.START ? "start" : "end");
    }
  }

  private static void timestamp(JsonGenerator out, Long timestamp) throws IOException {
    if (timestamp == null) {
      out.writeNullField("timestamp");
    } else {
      out.writeNumberField("timestamp", timestamp);
    }
  }
}
