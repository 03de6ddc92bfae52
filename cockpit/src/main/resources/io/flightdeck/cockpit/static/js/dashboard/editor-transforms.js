// The panel editor's transformations section: add one of the transformations the cockpit applies,
// remove, move up or down, switch one off, and edit its options in a form (calculateField by
// mode; reduce, joinByField and ours). A transformation the cockpit does not apply is kept, its
// options edited as JSON.
import { h, fill } from '../dom.js';
import { REDUCER_NAMES } from './fields.js';
import { BINARY_OPERATORS, UNARY_OPERATORS, WINDOW_REDUCERS, CUMULATIVE_REDUCERS, CALCULATE_MODES } from './calculate-field.js';
import { textControl, numberControl, selectControl, checkControl, smallButton, jsonControl } from './editor-controls.js';

const REDUCERS = Object.entries(REDUCER_NAMES);
// calculateField keeps one mode's options: those of the mode left are dropped.
const MODE_OPTIONS = ['binary', 'unary', 'reduce', 'index', 'cumulative', 'window'];

// Each form field: [path in options, label, kind, choices]; kinds: text, number, select, bool, list.
const FORMS = {
  reduce: () => [['mode', 'Mode', 'select', ['seriesToRows', 'reduceFields']], ['reducers', 'Calculations (comma separated)', 'list']],
  joinByField: () => [['byField', 'Field', 'text'], ['mode', 'Mode', 'select', ['outer', 'inner']]],
  calculateField: (o) => [
    ['mode', 'Mode', 'select', CALCULATE_MODES],
    ...({
      binary: [['binary.left', 'Left (series or number)', 'text'], ['binary.operator', 'Operator', 'select', Object.keys(BINARY_OPERATORS)], ['binary.right', 'Right (series or number)', 'text']],
      unary: [['unary.operator', 'Function', 'select', Object.keys(UNARY_OPERATORS)], ['unary.fieldName', 'Series', 'text']],
      reduceRow: [['reduce.reducer', 'Calculation', 'select', REDUCERS], ['reduce.include', 'Series (comma separated, empty: all)', 'list']],
      index: [['index.asPercentile', 'As percentile', 'bool']],
      cumulativeFunctions: [['cumulative.field', 'Series', 'text'], ['cumulative.reducer', 'Calculation', 'select', CUMULATIVE_REDUCERS]],
      windowFunctions: [['window.field', 'Series', 'text'], ['window.reducer', 'Calculation', 'select', WINDOW_REDUCERS],
        ['window.windowSize', 'Window size', 'number'], ['window.windowAlignment', 'Alignment', 'select', ['trailing', 'centered']]],
    }[o.mode || 'reduceRow'] || []),
    ['alias', 'Alias', 'text'],
    ['replaceFields', 'Replace all fields', 'bool'],
  ],
  'flightdeck.difference': () => [],
  'flightdeck.normalize': () => [['mode', 'Mode', 'select', ['first', 'range']]],
  'flightdeck.movingAverage': () => [['window', 'Window (points)', 'number']],
  'flightdeck.anomalies': () => [['threshold', 'Threshold (robust z)', 'number']],
};

const NAMES = {
  reduce: 'Reduce', joinByField: 'Join by field', calculateField: 'Add field from calculation',
  'flightdeck.difference': 'Difference', 'flightdeck.normalize': 'Normalise', 'flightdeck.movingAverage': 'Moving average',
  'flightdeck.anomalies': 'Anomaly marks',
};

/** Fresh options for a transformation just added, so its result shows at once. */
const DEFAULTS = {
  reduce: () => ({ reducers: ['lastNotNull'] }),
  joinByField: () => ({ byField: 'Time', mode: 'outer' }),
  calculateField: () => ({ mode: 'reduceRow', reduce: { reducer: 'sum' } }),
  'flightdeck.difference': () => ({}),
  'flightdeck.normalize': () => ({ mode: 'first' }),
  'flightdeck.movingAverage': () => ({ window: 5 }),
  'flightdeck.anomalies': () => ({ threshold: 3.5 }),
};

function getPath(obj, path) {
  return path.split('.').reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), obj);
}

function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  keys.slice(0, -1).forEach((k) => { if (!o[k] || typeof o[k] !== 'object') o[k] = {}; o = o[k]; });
  const last = keys[keys.length - 1];
  if (value === null || value === undefined || value === '') delete o[last];
  else o[last] = value;
}

function control(t, i, [path, label, kind, choices], rerender) {
  const name = `t-${i}-${path}`;
  const value = getPath(t.options, path);
  const set = (v) => setPath(t.options, path, v);
  switch (kind) {
    case 'select': return h('label.dash-field', `${label} `, selectControl(name, label, choices, value ?? (Array.isArray(choices[0]) ? choices[0][0] : choices[0]), (v) => {
      set(v);
      if (path !== 'mode') return;
      if (t.id === 'calculateField') MODE_OPTIONS.forEach((k) => delete t.options[k]);
      rerender();
    }));
    case 'number': return h('label.dash-field', `${label} `, numberControl(name, label, value, set));
    case 'bool': return checkControl(name, label, value, (v) => set(v || null));
    case 'list': return h('label.dash-field', `${label} `, textControl(name, label, (value || []).join(', '), (v) => set(v.split(',').map((s) => s.trim()).filter(Boolean)), { size: 30 }));
    default: return h('label.dash-field', `${label} `, textControl(name, label, typeof value === 'object' && value ? (value.fixed ?? '') : value, set, { size: 24 }));
  }
}

/** The transformations section for `panel`; `problems` collects options that do not parse. */
export function transformationsSection(panel, problems) {
  const box = h('fieldset.dash-transforms');
  const picker = () => selectControl('add-transformation', 'Transformation to add', Object.entries(NAMES), 'calculateField', () => {});
  const render = () => {
    panel.transformations = panel.transformations || [];
    const list = panel.transformations;
    const choose = picker();
    fill(box, h('legend', 'Transformations'),
      list.map((t, i) => {
        t.options = t.options || {};
        const form = FORMS[t.id];
        return h('div.dash-transform', { dataset: { transform: t.id, index: i } },
          h('div.dash-editor-row',
            h('strong', `${i + 1}. ${NAMES[t.id] || t.id}`),
            checkControl(`t-${i}-disabled`, 'off', t.disabled, (v) => { if (v) t.disabled = true; else delete t.disabled; }),
            smallButton('↑', `Move transformation ${i + 1} up`, () => { if (i > 0) { list.splice(i - 1, 0, list.splice(i, 1)[0]); render(); } }),
            smallButton('↓', `Move transformation ${i + 1} down`, () => { if (i < list.length - 1) { list.splice(i + 1, 0, list.splice(i, 1)[0]); render(); } }),
            smallButton('✕', `Remove transformation ${i + 1}`, () => { list.splice(i, 1); render(); })),
          form
            ? (form(t.options).length ? h('div.dash-editor-inline', form(t.options).map((f) => control(t, i, f, render))) : null)
            : h('label.dash-field', 'Options (JSON; not applied by the cockpit, kept for Grafana) ', jsonControl(`t-${i}-json`, `Transformation ${i + 1} options`, t.options, (v) => { t.options = v; }, problems)));
      }),
      h('div.dash-editor-row', choose, smallButton('+ Add transformation', 'Add transformation', () => {
        list.push({ id: choose.value, options: DEFAULTS[choose.value]() });
        render();
      })));
  };
  render();
  return box;
}
