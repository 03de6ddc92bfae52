// The panel editor's field config sections: thresholds (mode, and steps added, removed and
// changed; the first step is the base, below every other) and overrides (a matcher: byName,
// byRegexp, byType, byValue or byFrameRefID, and properties: unit, color, displayName,
// custom.axisPlacement, min, max, decimals and a few more; any other property an imported
// dashboard has is kept and edited as JSON). Both write into the editor's copy of the panel.
import { h, fill } from '../dom.js';
import { REDUCER_NAMES, cssColour } from './fields.js';
import { textControl, numberControl, selectControl, smallButton, jsonControl } from './editor-controls.js';

export const MATCHERS = [['byName', 'Fields with name'], ['byRegexp', 'Fields with name matching regex'], ['byType', 'Fields with type'],
  ['byValue', 'Fields with values (reducer)'], ['byFrameRefID', 'Fields returned by query']];
const OPS = [['gt', '>'], ['gte', '>='], ['lt', '<'], ['lte', '<='], ['eq', '=='], ['neq', '!=']];
const NUMBER_PROPERTIES = ['min', 'max', 'decimals', 'custom.lineWidth', 'custom.fillOpacity'];
const PROPERTIES = ['unit', 'color', 'displayName', 'custom.axisPlacement', 'min', 'max', 'decimals',
  'custom.drawStyle', 'custom.lineWidth', 'custom.fillOpacity'];
const CHOICES = {
  'custom.axisPlacement': ['auto', 'left', 'right', 'hidden'],
  'custom.drawStyle': ['line', 'bars', 'points'],
};

/** A step added after the last: ten above it (or 80 for the first), red. */
function nextStep(steps) {
  const last = steps.length ? steps[steps.length - 1].value : null;
  return { color: 'red', value: last === null || last === undefined ? 80 : Number(last) + 10 };
}

/**
 * The thresholds section for `defaults` (fieldConfig.defaults), drawn into a fieldset. A panel
 * without thresholds gets them only once the user changes something here.
 */
export function thresholdsSection(defaults) {
  const box = h('fieldset.dash-thresholds');
  const t = defaults.thresholds || { mode: 'absolute', steps: [{ color: 'green', value: null }] };
  t.steps = t.steps || [];
  const changed = (fn) => (...args) => {
    fn(...args);
    defaults.thresholds = t;
  };
  const render = () => {
    fill(box, h('legend', 'Thresholds'),
      h('label.dash-field', 'Mode ', selectControl('thresholds-mode', 'Thresholds mode', [['absolute', 'Absolute'], ['percentage', 'Percentage']], t.mode || 'absolute', changed((v) => { t.mode = v; }))),
      t.steps.map((step, i) => h('div.dash-editor-row', { dataset: { step: i } },
        i === 0 && (step.value === null || step.value === undefined)
          ? h('span.dash-base', 'Base')
          : numberControl(`threshold-value-${i}`, `Threshold ${i} value`, step.value, changed((v) => { step.value = v; })),
        textControl(`threshold-color-${i}`, `Threshold ${i} colour`, step.color, changed((v) => { step.color = v.trim(); }), { placeholder: 'red, #ff0000' }),
        h('i.swatch', { style: { background: cssColour(step.color) } }),
        i === 0 ? null : smallButton('✕', `Remove threshold ${i}`, changed(() => { t.steps.splice(i, 1); render(); })))),
      smallButton('+ Add threshold', 'Add threshold', changed(() => { t.steps.push(nextStep(t.steps)); render(); })));
  };
  render();
  return box;
}

/** Steps in Grafana's order: the base (the first, value null) first, then by value; a step left without a value is dropped. */
export function sortedSteps(steps) {
  const hasValue = (s) => s.value !== null && s.value !== undefined && Number.isFinite(Number(s.value));
  const base = steps.length && !hasValue(steps[0]) ? [steps[0]] : [];
  return [...base, ...steps.filter(hasValue).sort((a, b) => a.value - b.value)];
}

function propertyValueControl(name, prop, problems) {
  const label = `${name} value`;
  if (prop.id === 'color') {
    const text = prop.value && typeof prop.value === 'object' ? prop.value.fixedColor : prop.value;
    return textControl(name, label, text, (v) => { prop.value = { mode: 'fixed', fixedColor: v.trim() }; }, { placeholder: 'red, #ff0000' });
  }
  if (CHOICES[prop.id]) return selectControl(name, label, CHOICES[prop.id], prop.value ?? CHOICES[prop.id][0], (v) => { prop.value = v; });
  if (NUMBER_PROPERTIES.includes(prop.id)) return numberControl(name, label, prop.value, (v) => { prop.value = v; });
  if (prop.id === 'unit' || prop.id === 'displayName') return textControl(name, label, prop.value, (v) => { prop.value = v; }, { size: 24 });
  return jsonControl(name, label, prop.value, (v) => { prop.value = v; }, problems);
}

/** A fresh value for a property whose kind changed, so the control shows something sensible. */
function defaultValue(id) {
  if (id === 'color') return { mode: 'fixed', fixedColor: 'red' };
  if (CHOICES[id]) return CHOICES[id][0];
  if (NUMBER_PROPERTIES.includes(id)) return null;
  return id === 'unit' || id === 'displayName' ? '' : null;
}

function matcherOptions(override, i, problems) {
  const m = override.matcher;
  if (m.id === 'byValue') {
    m.options = m.options && typeof m.options === 'object' ? m.options : { reducer: 'mean', op: 'gt', value: 0 };
    const o = m.options;
    return h('span.dash-editor-inline',
      selectControl(`override-${i}-reducer`, `Override ${i} reducer`, Object.entries(REDUCER_NAMES), o.reducer || o.reduce || 'mean', (v) => { o.reducer = v; delete o.reduce; }),
      selectControl(`override-${i}-op`, `Override ${i} comparison`, OPS, o.op || 'gte', (v) => { o.op = v; }),
      numberControl(`override-${i}-value`, `Override ${i} value`, o.value ?? 0, (v) => { o.value = v ?? 0; }));
  }
  if (m.id === 'byType') {
    return selectControl(`override-${i}-options`, `Override ${i} type`, ['number', 'time', 'string'], m.options || 'number', (v) => { m.options = v; });
  }
  return textControl(`override-${i}-options`, `Override ${i} ${m.id === 'byRegexp' ? 'regex' : m.id === 'byFrameRefID' ? 'query' : 'name'}`,
    typeof m.options === 'string' ? m.options : '', (v) => {
      m.options = v;
      if (m.id !== 'byRegexp') return;
      try {
        new RegExp(v.replace(/^\/(.*)\/[a-z]*$/, '$1'));
        problems.delete(`override-${i}-options`);
      } catch (e) {
        problems.set(`override-${i}-options`, `override ${i + 1}: the regex "${v}" does not parse (${e.message})`);
      }
    }, { size: 24 });
}

/** The overrides section for `fieldConfig`; `problems` collects what does not parse. */
export function overridesSection(fieldConfig, problems) {
  const box = h('fieldset.dash-overrides');
  const render = () => {
    fieldConfig.overrides = fieldConfig.overrides || [];
    const list = fieldConfig.overrides;
    fill(box, h('legend', 'Overrides'),
      list.map((o, i) => {
        o.matcher = o.matcher || { id: 'byName', options: '' };
        o.properties = o.properties || [];
        return h('div.dash-override', { dataset: { override: i } },
          h('div.dash-editor-row',
            selectControl(`override-${i}-matcher`, `Override ${i} matcher`, MATCHERS, o.matcher.id, (v) => {
              o.matcher = { id: v, options: v === 'byType' ? 'number' : v === 'byValue' ? { reducer: 'mean', op: 'gt', value: 0 } : '' };
              render();
            }),
            matcherOptions(o, i, problems),
            smallButton('✕ override', `Remove override ${i}`, () => { list.splice(i, 1); render(); })),
          o.properties.map((p, j) => h('div.dash-editor-row.dash-property',
            selectControl(`override-${i}-prop-${j}-id`, `Override ${i} property ${j}`, PROPERTIES, p.id, (v) => {
              p.id = v;
              p.value = defaultValue(v);
              render();
            }),
            propertyValueControl(`override-${i}-prop-${j}`, p, problems),
            smallButton('✕', `Remove override ${i} property ${j}`, () => { o.properties.splice(j, 1); render(); }))),
          smallButton('+ Add property', `Add property to override ${i}`, () => { o.properties.push({ id: 'unit', value: '' }); render(); }));
      }),
      smallButton('+ Add override', 'Add override', () => { list.push({ matcher: { id: 'byName', options: '' }, properties: [] }); render(); }));
  };
  render();
  return box;
}
