// Completion for the PromQL textarea: metric names (from the server) and function names for the
// word before the cursor; arrows move, Tab or Enter takes one, Escape closes.
import { h, fill } from './dom.js';

const FUNCTIONS = ['abs', 'absent', 'absent_over_time', 'avg_over_time', 'ceil', 'changes', 'clamp',
  'clamp_max', 'clamp_min', 'count_over_time', 'day_of_month', 'day_of_week', 'delta', 'deriv', 'exp',
  'floor', 'histogram_quantile', 'holt_winters', 'idelta', 'increase', 'irate', 'label_join',
  'label_replace', 'last_over_time', 'ln', 'log2', 'log10', 'max_over_time', 'min_over_time',
  'predict_linear', 'present_over_time', 'quantile_over_time', 'rate', 'resets', 'round', 'scalar',
  'sort', 'sort_desc', 'sqrt', 'stddev_over_time', 'sum_over_time', 'time', 'timestamp', 'vector',
  'sum', 'avg', 'min', 'max', 'count', 'stddev', 'topk', 'bottomk', 'quantile', 'count_values', 'group'];
const MAX = 8;

/** Attaches completion to `editor`; `names` is a promise of metric names. */
export function attachCompletion(editor, names) {
  let words = FUNCTIONS.map((f) => ({ word: f, kind: 'function' }));
  names.then((list) => { words = list.map((n) => ({ word: n, kind: 'metric' })).concat(words); }).catch(() => {});
  const box = h('ul.completion', { role: 'listbox', hidden: true });
  editor.insertAdjacentElement('afterend', box);
  let items = [];
  let active = 0;
  let start = 0;

  function close() {
    box.hidden = true;
    items = [];
  }

  function take(i) {
    const item = items[i];
    if (!item) return;
    const end = editor.selectionStart;
    editor.value = editor.value.slice(0, start) + item.word + (item.kind === 'function' ? '(' : '') + editor.value.slice(end);
    const at = start + item.word.length + (item.kind === 'function' ? 1 : 0);
    editor.setSelectionRange(at, at);
    close();
    editor.dispatchEvent(new Event('input'));
  }

  function show() {
    const before = editor.value.slice(0, editor.selectionStart);
    const m = before.match(/[A-Za-z_:][A-Za-z0-9_:]*$/);
    // Inside braces the word is a label, which this completion does not know.
    const inBraces = before.lastIndexOf('{') > before.lastIndexOf('}');
    if (!m || m[0].length < 2 || inBraces) return close();
    start = before.length - m[0].length;
    const prefix = m[0].toLowerCase();
    const starts = words.filter((w) => w.word.toLowerCase().startsWith(prefix) && w.word !== m[0]);
    const contains = words.filter((w) => !w.word.toLowerCase().startsWith(prefix) && w.word.toLowerCase().includes(prefix));
    items = starts.concat(contains).slice(0, MAX);
    if (!items.length) return close();
    active = 0;
    render();
  }

  function render() {
    fill(box, items.map((item, i) => h(`li${i === active ? '.on' : ''}`, {
      role: 'option', 'aria-selected': String(i === active),
      onmousedown: (e) => { e.preventDefault(); take(i); },
    }, item.word, h('span.muted', ` ${item.kind}`))));
    box.hidden = false;
  }

  editor.addEventListener('input', (e) => { if (e.isTrusted !== false) show(); });
  editor.addEventListener('blur', close);
  editor.addEventListener('keydown', (e) => {
    if (box.hidden) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      active = (active + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      render();
    } else if ((e.key === 'Tab' || e.key === 'Enter') && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      take(active);
    } else if (e.key === 'Escape') {
      close();
    }
  });
}
