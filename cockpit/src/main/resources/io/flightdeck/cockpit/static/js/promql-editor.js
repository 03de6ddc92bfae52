// The PromQL editor: CodeMirror 6 with PromQL highlighting, completion of metric names,
// functions, label names and label values from the server, and the server's own parse errors
// (/api/v1/parse_query) underlined where they point. Ctrl+Enter (Cmd+Enter) runs the query.
import { EditorView, keymap, placeholder, drawSelection } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { StreamLanguage, syntaxHighlighting, HighlightStyle, bracketMatching } from '@codemirror/language';
import { autocompletion, acceptCompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { linter } from '@codemirror/lint';
import { tags } from '@lezer/highlight';
import { get } from './api.js';

const AGGREGATIONS = ['sum', 'avg', 'min', 'max', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile',
  'count_values', 'group', 'limitk', 'limit_ratio'];
const FUNCTIONS = ['abs', 'absent', 'absent_over_time', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh',
  'avg_over_time', 'ceil', 'changes', 'clamp', 'clamp_max', 'clamp_min', 'cos', 'cosh', 'count_over_time',
  'day_of_month', 'day_of_week', 'day_of_year', 'days_in_month', 'deg', 'delta', 'deriv', 'exp', 'floor',
  'histogram_avg', 'histogram_count', 'histogram_fraction', 'histogram_quantile', 'histogram_stddev',
  'histogram_stdvar', 'histogram_sum', 'holt_winters', 'double_exponential_smoothing', 'hour', 'idelta',
  'increase', 'irate', 'label_join', 'label_replace', 'last_over_time', 'ln', 'log10', 'log2',
  'mad_over_time', 'max_over_time', 'min_over_time', 'minute', 'month', 'pi', 'predict_linear',
  'present_over_time', 'quantile_over_time', 'rad', 'rate', 'resets', 'round', 'scalar', 'sgn', 'sin',
  'sinh', 'sort', 'sort_by_label', 'sort_by_label_desc', 'sort_desc', 'sqrt', 'stddev_over_time',
  'stdvar_over_time', 'sum_over_time', 'tan', 'tanh', 'time', 'timestamp', 'vector', 'year'];
const MODIFIERS = ['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'and',
  'or', 'unless', 'atan2'];
const KEYWORDS = new Set([...AGGREGATIONS, ...MODIFIERS]);
const CALLABLE = new Set([...AGGREGATIONS, ...FUNCTIONS]);

/** PromQL tokens for highlighting: a small stream tokenizer, the server's parser judges validity. */
const promql = StreamLanguage.define({
  name: 'promql',
  startState: () => ({ braces: 0 }),
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match(/^#.*/)) return 'comment';
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/) || stream.match(/^`[^`]*`?/)) return 'string';
    if (stream.match(/^\d+(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*/)) return 'unit';
    if (stream.match(/^(?:0x[0-9a-fA-F]+|\d*\.?\d+(?:[eE][+-]?\d+)?|Inf|NaN)\b/i)) return 'number';
    if (stream.match(/^[{]/)) { state.braces++; return 'bracket'; }
    if (stream.match(/^[}]/)) { state.braces = Math.max(0, state.braces - 1); return 'bracket'; }
    if (stream.match(/^[()[\]]/)) return 'bracket';
    const word = stream.match(/^[A-Za-z_:][A-Za-z0-9_:.]*/);
    if (word) {
      if (state.braces > 0) return 'labelName';
      if (KEYWORDS.has(word[0])) return 'keyword';
      if (CALLABLE.has(word[0]) && stream.match(/^\s*\(/, false)) return 'function';
      return 'variableName';
    }
    if (stream.match(/^(?:=~|!~|!=|==|<=|>=|[-+*/%^=<>@,:])/)) return 'operator';
    stream.next();
    return null;
  },
  tokenTable: { function: tags.function(tags.variableName), labelName: tags.labelName, unit: tags.unit },
});

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: '#ff7b72' },
  { tag: tags.function(tags.variableName), color: '#d2a8ff' },
  { tag: tags.variableName, color: '#e6edf3' },
  { tag: tags.labelName, color: '#79c0ff' },
  { tag: tags.string, color: '#a5d6ff' },
  { tag: tags.number, color: '#f2cc60' },
  { tag: tags.unit, color: '#f2cc60' },
  { tag: tags.comment, color: '#8b949e', fontStyle: 'italic' },
  { tag: tags.operator, color: '#ffa657' },
]);

const theme = EditorView.theme({
  '&': { background: 'var(--panel)', border: '1px solid var(--border)', borderRadius: '6px', fontSize: '13px' },
  '&.cm-focused': { outline: 'none', borderColor: 'var(--accent)' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', padding: '8px 4px', minHeight: '54px', caretColor: 'var(--text)' },
  '.cm-placeholder': { color: 'var(--muted)' },
  '.cm-tooltip': { background: 'var(--panel-2)', border: '1px solid var(--border)', color: 'var(--text)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: '#1f6feb', color: 'white' },
  '.cm-completionDetail': { color: 'var(--muted)', marginLeft: '8px', fontStyle: 'normal' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--bad)' },
}, { dark: true });

/** The labels and label values the server knows, asked once per metric and label. */
class Vocabulary {
  constructor() {
    this.cache = new Map();
  }

  ask(key, load) {
    if (!this.cache.has(key)) this.cache.set(key, load().catch(() => []));
    return this.cache.get(key);
  }

  metrics() {
    return this.ask('metrics', () => get('label/__name__/values'));
  }

  labels(metric) {
    return this.ask(`labels\u0000${metric}`, () => get('labels', metric ? { 'match[]': metric } : {}))
      .then((names) => names.filter((n) => n !== '__name__'));
  }

  values(label, metric) {
    return this.ask(`values\u0000${label}\u0000${metric}`,
      () => get(`label/${encodeURIComponent(label)}/values`, metric ? { 'match[]': metric } : {}));
  }
}

/** The metric whose braces (or aggregation) the cursor is in: `name{...|` gives name. */
function metricBeforeBrace(text) {
  const open = text.lastIndexOf('{');
  const m = text.slice(0, open).match(/([A-Za-z_:][A-Za-z0-9_:]*)\s*$/);
  return m && !CALLABLE.has(m[1]) && !KEYWORDS.has(m[1]) ? m[1] : null;
}

function completionSource(vocabulary) {
  return async (context) => {
    const before = context.state.sliceDoc(0, context.pos);
    const inBraces = before.lastIndexOf('{') > before.lastIndexOf('}');
    if (inBraces) {
      const metric = metricBeforeBrace(before);
      const value = before.match(/([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)$/);
      if (value) {
        const values = await vocabulary.values(value[1], metric);
        return { from: context.pos - value[2].length, options: values.slice(0, 1000).map((v) => ({ label: v, type: 'text' })), validFor: /^[^"]*$/ };
      }
      const name = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
      if (!name && !context.explicit && !/[{,]\s*$/.test(before)) return null;
      const labels = await vocabulary.labels(metric);
      return { from: name ? name.from : context.pos, options: labels.map((l) => ({ label: l, type: 'property' })), validFor: /^[A-Za-z0-9_]*$/ };
    }
    // by (...), without (...), on (...), ignoring (...): label names.
    const grouping = before.match(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^()]*)$/);
    if (grouping) {
      const name = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
      const labels = await vocabulary.labels(null);
      return { from: name ? name.from : context.pos, options: labels.map((l) => ({ label: l, type: 'property' })), validFor: /^[A-Za-z0-9_]*$/ };
    }
    const word = context.matchBefore(/[A-Za-z_:][A-Za-z0-9_:]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const metrics = await vocabulary.metrics();
    return {
      from: word.from,
      options: [
        ...metrics.map((m) => ({ label: m, type: 'variable', detail: 'metric' })),
        ...FUNCTIONS.map((f) => ({ label: f, type: 'function', detail: 'function', apply: `${f}(` })),
        ...AGGREGATIONS.map((f) => ({ label: f, type: 'keyword', detail: 'aggregation', apply: `${f}(` })),
        ...MODIFIERS.map((f) => ({ label: f, type: 'keyword', detail: 'keyword' })),
      ],
      validFor: /^[A-Za-z0-9_:]*$/,
    };
  };
}

/** Where a message such as `invalid parameter "query": 1:14: parse error: ...` points. */
function errorRange(message, doc) {
  const m = message.match(/(\d+):(\d+)(?:-\d+:\d+)?: parse error/);
  if (!m) return { from: 0, to: doc.length };
  const line = doc.line(Math.min(Math.max(1, Number(m[1])), doc.lines));
  const from = Math.min(line.from + Math.max(0, Number(m[2]) - 1), doc.length);
  return from >= doc.length ? { from: Math.max(0, doc.length - 1), to: doc.length } : { from, to: from + 1 };
}

/**
 * Creates the editor in `parent`. `onRun` is called on Ctrl+Enter; `onCheck(message|null)` after
 * each check by the server (null: the expression parses).
 */
export function createPromqlEditor(parent, { doc = '', onRun = () => {}, onCheck = () => {} } = {}) {
  const vocabulary = new Vocabulary();
  const check = linter(async (view) => {
    const expr = view.state.doc.toString();
    if (!expr.trim()) {
      onCheck(null);
      return [];
    }
    try {
      await get('parse_query', { query: expr });
      onCheck(null);
      return [];
    } catch (e) {
      if (e.status === 0) return [];
      onCheck(e.message);
      return [{ ...errorRange(e.message, view.state.doc), severity: 'error', message: e.message }];
    }
  }, { delay: 300 });
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        Prec.highest(keymap.of([
          { key: 'Mod-Enter', run: () => { onRun(); return true; } },
          { key: 'Tab', run: acceptCompletion },
        ])),
        history(),
        drawSelection(),
        closeBrackets(),
        bracketMatching(),
        autocompletion({ override: [completionSource(vocabulary)], activateOnTyping: true, maxRenderedOptions: 50 }),
        keymap.of([...closeBracketsKeymap, ...completionKeymap, ...historyKeymap, ...defaultKeymap]),
        promql,
        syntaxHighlighting(highlight),
        theme,
        check,
        EditorView.lineWrapping,
        placeholder('A PromQL expression, e.g. rate(node_network_receive_bytes_total[5m])'),
        EditorView.contentAttributes.of({ 'aria-label': 'PromQL expression', spellcheck: 'false' }),
      ],
    }),
  });
  return {
    view,
    value: () => view.state.doc.toString(),
    setValue(text) {
      if (text !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    insert(text) {
      const { from, to } = view.state.selection.main;
      view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
      view.focus();
    },
    hasFocus: () => view.hasFocus,
    metrics: () => vocabulary.metrics(),
    destroy: () => view.destroy(),
  };
}
