package io.flightdeck.rules;

import io.flightdeck.rules.TemplateNode.Branch;
import io.flightdeck.rules.TemplateNode.Command;
import io.flightdeck.rules.TemplateNode.Kind;
import io.flightdeck.rules.TemplateNode.Operand;
import io.flightdeck.rules.TemplateNode.Pipeline;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Parses the text/template subset: text, actions with trim markers and comments, pipelines,
 * variables, {@code if}/{@code else if}/{@code with}/{@code range}/{@code else}/{@code end}. Names
 * of functions and variables are checked at parse time, as Go does.
 */
final class TemplateParser {
  private static final Set<String> KEYWORDS =
      Set.of("if", "else", "end", "range", "with", "true", "false", "nil");

  private final String name;
  private final String text;
  private final List<Action> actions = new ArrayList<>();
  private final List<Set<String>> scopes = new ArrayList<>();
  private int next;

  /** One {{ }} with the text before it; {@code tokens} is null for trailing text. */
  private record Action(String before, List<Token> tokens, int line) {}

  private record Token(char kind, String text) {}

  private TemplateParser(String name, String text, Set<String> variables) {
    this.name = name;
    this.text = text;
    scopes.add(new HashSet<>(variables));
  }

  static List<TemplateNode> parse(String name, String text, Set<String> variables) {
    TemplateParser parser = new TemplateParser(name, text, variables);
    parser.split();
    List<TemplateNode> nodes = new ArrayList<>();
    String end = parser.list(nodes);
    if (end != null) {
      throw parser.error(parser.actions.get(parser.next - 1).line(), "unexpected {{" + end + "}}");
    }
    return List.copyOf(nodes);
  }

  /** Parses nodes until {{else}} or {{end}} (returned) or the end of the text (null). */
  private String list(List<TemplateNode> out) {
    while (next < actions.size()) {
      Action a = actions.get(next++);
      if (!a.before().isEmpty()) {
        out.add(new TemplateNode.Text(a.before()));
      }
      if (a.tokens() == null) {
        continue;
      }
      List<Token> tokens = a.tokens();
      if (tokens.isEmpty()) {
        throw error(a.line(), "missing value for command");
      }
      Token first = tokens.getFirst();
      String word = first.kind() == 'i' ? first.text() : "";
      switch (word) {
        case "end" -> {
          return "end";
        }
        case "else" -> {
          // "else if" and "else with" chain into a nested branch that shares our end.
          if (tokens.size() > 1) {
            next--;
            actions.set(next, new Action("", tokens.subList(1, tokens.size()), a.line()));
            return "else-chain";
          }
          return "else";
        }
        case "if", "with", "range" -> out.add(branch(a, Kind.valueOf(word.toUpperCase())));
        case "define", "template", "block", "break", "continue" ->
            throw error(a.line(), "unsupported action {{" + word + "}}");
        default -> out.add(new TemplateNode.Action(a.line(), pipeline(a, tokens, true)));
      }
    }
    return null;
  }

  private Branch branch(Action a, Kind kind) {
    scopes.add(new HashSet<>());
    Pipeline pipeline = pipeline(a, a.tokens().subList(1, a.tokens().size()), kind == Kind.RANGE);
    List<TemplateNode> body = new ArrayList<>();
    String end = list(body);
    List<TemplateNode> otherwise = new ArrayList<>();
    if ("else-chain".equals(end)) {
      Action chained = actions.get(next++);
      Token word = chained.tokens().getFirst();
      if (word.kind() != 'i' || !(word.text().equals("if") || word.text().equals("with"))) {
        throw error(chained.line(), "expected if or with after else");
      }
      otherwise.add(branch(chained, Kind.valueOf(word.text().toUpperCase())));
      scopes.removeLast();
      return new Branch(kind, a.line(), pipeline, body, otherwise);
    }
    if ("else".equals(end)) {
      end = list(otherwise);
      if ("else".equals(end) || "else-chain".equals(end)) {
        throw error(actions.get(next - 1).line(), "expected end; found {{else}}");
      }
    }
    scopes.removeLast();
    if (end == null) {
      throw error(lineAt(text.length()), "unexpected EOF");
    }
    if (!end.equals("end")) {
      throw error(actions.get(next - 1).line(), "unexpected {{else}}");
    }
    return new Branch(kind, a.line(), pipeline, body, otherwise);
  }

  private Pipeline pipeline(Action a, List<Token> tokens, boolean mayDeclareTwo) {
    int pos = 0;
    List<String> variables = new ArrayList<>();
    boolean declare = false;
    int assign = -1;
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).kind() == ':' || tokens.get(i).kind() == '=') {
        assign = i;
        break;
      }
    }
    if (assign > 0) {
      for (int i = 0; i < assign; i++) {
        Token t = tokens.get(i);
        if (t.kind() == '$') {
          variables.add(t.text());
        } else if (t.kind() != ',' || !mayDeclareTwo) {
          throw error(a.line(), "unexpected " + quoted(t) + " in command");
        }
      }
      declare = tokens.get(assign).kind() == ':';
      for (String v : variables) {
        if (declare) {
          scopes.getLast().add(v);
        } else if (!defined(v)) {
          throw error(a.line(), "undefined variable \"" + v + "\"");
        }
      }
      pos = assign + 1;
    }
    List<Command> commands = new ArrayList<>();
    int[] cursor = {pos};
    commands(a, tokens, cursor, commands, false);
    return new Pipeline(List.copyOf(variables), declare, List.copyOf(commands));
  }

  private void commands(
      Action a, List<Token> tokens, int[] cursor, List<Command> out, boolean nested) {
    List<Operand> operands = new ArrayList<>();
    while (cursor[0] < tokens.size()) {
      Token t = tokens.get(cursor[0]);
      if (t.kind() == ')') {
        if (!nested) {
          throw error(a.line(), "unexpected right paren");
        }
        break;
      }
      cursor[0]++;
      if (t.kind() == '|') {
        if (operands.isEmpty()) {
          throw error(a.line(), "missing value for command");
        }
        out.add(new Command(List.copyOf(operands)));
        operands = new ArrayList<>();
        continue;
      }
      operands.add(operand(a, t, tokens, cursor));
    }
    if (operands.isEmpty() && out.isEmpty()) {
      throw error(a.line(), "missing value for command");
    }
    // Go accepts a trailing "|" with nothing after it.
    if (!operands.isEmpty()) {
      out.add(new Command(List.copyOf(operands)));
    }
  }

  private Operand operand(Action a, Token t, List<Token> tokens, int[] cursor) {
    return switch (t.kind()) {
      case '.' -> new TemplateNode.Field(List.of());
      case 'f' -> new TemplateNode.Field(fields(tokens, cursor, t.text()));
      case '$' -> {
        if (!defined(t.text())) {
          throw error(a.line(), "undefined variable \"" + t.text() + "\"");
        }
        yield new TemplateNode.Variable(t.text(), fields(tokens, cursor, null));
      }
      case 's' -> new TemplateNode.Constant(t.text());
      case 'n' -> new TemplateNode.Constant(number(a, t.text()));
      case '(' -> {
        List<Command> inner = new ArrayList<>();
        commands(a, tokens, cursor, inner, true);
        if (cursor[0] >= tokens.size()) {
          throw error(a.line(), "unclosed left paren");
        }
        cursor[0]++;
        yield new TemplateNode.Nested(
            new Pipeline(List.of(), false, List.copyOf(inner)), fields(tokens, cursor, null));
      }
      case 'i' ->
          switch (t.text()) {
            case "true" -> new TemplateNode.Constant(Boolean.TRUE);
            case "false" -> new TemplateNode.Constant(Boolean.FALSE);
            case "nil" -> new TemplateNode.Constant(null);
            default -> {
              if (!TemplateFunctions.exists(t.text())) {
                throw error(a.line(), "function \"" + t.text() + "\" not defined");
              }
              yield new TemplateNode.Function(t.text());
            }
          };
      default -> throw error(a.line(), "unexpected " + quoted(t) + " in operand");
    };
  }

  private static List<String> fields(List<Token> tokens, int[] cursor, String first) {
    List<String> names = new ArrayList<>();
    if (first != null) {
      names.add(first);
    }
    while (cursor[0] < tokens.size() && tokens.get(cursor[0]).kind() == 'f') {
      names.add(tokens.get(cursor[0]++).text());
    }
    return List.copyOf(names);
  }

  private Object number(Action a, String s) {
    try {
      if (s.startsWith("0x") || s.startsWith("0X")) {
        return Long.parseLong(s.substring(2), 16);
      }
      if (s.matches("[+-]?\\d+")) {
        return Long.parseLong(s);
      }
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw error(a.line(), "illegal number syntax: \"" + s + "\"");
    }
  }

  private boolean defined(String variable) {
    return scopes.stream().anyMatch(s -> s.contains(variable));
  }

  private static String quoted(Token t) {
    return "\"" + t.text() + "\"";
  }

  // ---- lexing ----

  /** Splits the text into actions, applying trim markers and dropping comments. */
  private void split() {
    int pos = 0;
    StringBuilder before = new StringBuilder();
    while (true) {
      int open = text.indexOf("{{", pos);
      if (open < 0) {
        before.append(text, pos, text.length());
        actions.add(new Action(before.toString(), null, lineAt(text.length())));
        return;
      }
      int line = lineAt(open);
      String chunk = text.substring(pos, open);
      int inner = open + 2;
      if (text.startsWith("- ", inner)
          || text.startsWith("-\t", inner)
          || text.startsWith("-\n", inner)) {
        chunk = chunk.stripTrailing();
        inner++;
      }
      before.append(chunk);
      List<Token> tokens = new ArrayList<>();
      int close = lex(inner, tokens, line);
      pos = close + 2;
      if (close > inner
          && text.charAt(close - 1) == '-'
          && Character.isWhitespace(text.charAt(close - 2))) {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
          pos++;
        }
      }
      if (isComment(text.substring(inner, close).strip())) {
        continue;
      }
      actions.add(new Action(before.toString(), tokens, line));
      before.setLength(0);
    }
  }

  private static boolean isComment(String inside) {
    String s = inside.endsWith("-") ? inside.substring(0, inside.length() - 1).strip() : inside;
    return s.startsWith("/*") && s.endsWith("*/");
  }

  /** Tokenises one action starting at {@code pos}; returns the index of its closing braces. */
  private int lex(int pos, List<Token> out, int line) {
    int i = pos;
    if (text.startsWith("/*", skipSpace(i))) {
      int end = text.indexOf("*/", i);
      int close = end < 0 ? -1 : text.indexOf("}}", end);
      if (close < 0) {
        throw error(line, "unclosed comment");
      }
      return close;
    }
    while (true) {
      if (i >= text.length()) {
        throw unclosed(out, line);
      }
      char c = text.charAt(i);
      if (text.startsWith("}}", i)) {
        return i;
      }
      if (c == '-'
          && text.startsWith("}}", i + 1)
          && i > pos
          && Character.isWhitespace(text.charAt(i - 1))) {
        return i + 1;
      }
      if (Character.isWhitespace(c)) {
        if (c == '\n') {
          throw unclosed(out, line);
        }
        i++;
      } else if (c == '"') {
        i = quotedString(i, out, line);
      } else if (c == '`') {
        int end = text.indexOf('`', i + 1);
        if (end < 0) {
          throw error(line, "unterminated raw quoted string");
        }
        out.add(new Token('s', text.substring(i + 1, end)));
        i = end + 1;
      } else if (c == '$') {
        int end = identEnd(i + 1);
        out.add(new Token('$', text.substring(i, end)));
        i = end;
      } else if (c == '.') {
        int end = identEnd(i + 1);
        if (end == i + 1) {
          if (i + 1 < text.length() && Character.isDigit(text.charAt(i + 1))) {
            end = numberEnd(i);
            out.add(new Token('n', text.substring(i, end)));
          } else {
            out.add(new Token('.', "."));
          }
        } else {
          out.add(new Token('f', text.substring(i + 1, end)));
        }
        i = end;
      } else if (Character.isDigit(c)
          || ((c == '-' || c == '+')
              && i + 1 < text.length()
              && Character.isDigit(text.charAt(i + 1)))) {
        int end = numberEnd(i);
        out.add(new Token('n', text.substring(i, end)));
        i = end;
      } else if (Character.isLetter(c) || c == '_') {
        int end = identEnd(i);
        out.add(new Token('i', text.substring(i, end)));
        i = end;
      } else if (c == ':' && text.startsWith(":=", i)) {
        out.add(new Token(':', ":="));
        i += 2;
      } else if ("=|(),".indexOf(c) >= 0) {
        out.add(new Token(c, String.valueOf(c)));
        i++;
      } else {
        throw error(line, "unexpected \"" + c + "\" in command");
      }
    }
  }

  /** Go's parser meets unknown names before it notices the missing braces, so report them first. */
  private TemplateException unclosed(List<Token> tokens, int line) {
    for (Token t : tokens) {
      if (t.kind() == 'i' && !KEYWORDS.contains(t.text()) && !TemplateFunctions.exists(t.text())) {
        return error(line, "function \"" + t.text() + "\" not defined");
      }
      if (t.kind() == '$' && !defined(t.text())) {
        return error(line, "undefined variable \"" + t.text() + "\"");
      }
    }
    return error(line, "unclosed action");
  }

  private int quotedString(int start, List<Token> out, int line) {
    StringBuilder s = new StringBuilder();
    int i = start + 1;
    while (true) {
      if (i >= text.length() || text.charAt(i) == '\n') {
        throw error(line, "unterminated quoted string");
      }
      char c = text.charAt(i);
      if (c == '"') {
        out.add(new Token('s', s.toString()));
        return i + 1;
      }
      if (c == '\\' && i + 1 < text.length()) {
        char e = text.charAt(++i);
        switch (e) {
          case 'n' -> s.append('\n');
          case 't' -> s.append('\t');
          case 'r' -> s.append('\r');
          case '\\', '"', '\'' -> s.append(e);
          default -> throw error(line, "invalid syntax");
        }
      } else {
        s.append(c);
      }
      i++;
    }
  }

  private int skipSpace(int i) {
    while (i < text.length() && text.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  private int identEnd(int i) {
    while (i < text.length()
        && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
      i++;
    }
    return i;
  }

  private int numberEnd(int i) {
    int j = i + 1;
    while (j < text.length()) {
      char c = text.charAt(j);
      boolean exponentSign = (c == '-' || c == '+') && "eE".indexOf(text.charAt(j - 1)) >= 0;
      if (!Character.isLetterOrDigit(c) && c != '.' && c != '_' && !exponentSign) {
        break;
      }
      j++;
    }
    return j;
  }

  private int lineAt(int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private TemplateException error(int line, String message) {
    return new TemplateException("template: " + name + ":" + line + ": " + message);
  }
}
