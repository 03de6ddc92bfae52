// The variables bar: one control per variable that is not hidden (Grafana's hide 2), filled with
// the options and selection the server resolved on our data. Single values are a select, multi
// values a drop-down of check boxes, textboxes an input; "All" where the variable allows it.
// A change calls onChange(name, values); the page puts it in the URL as var-NAME and asks the
// server again, which re-resolves the variables that depend on it.
import { h } from '../dom.js';

const ALL = '$__all';

function label(variable) {
  return variable.hide === 1 ? null : h('span.dash-var-label', variable.label || variable.name);
}

function singleSelect(variable, resolved, onChange) {
  const selected = resolved.selected[0] ?? '';
  const options = [...(variable.includeAll ? [ALL] : []), ...resolved.options];
  if (selected && !options.includes(selected)) options.unshift(selected);
  return h('select', { 'aria-label': variable.label || variable.name, onchange: (e) => onChange(variable.name, [e.target.value]) },
    options.map((o) => h('option', { value: o, selected: o === selected }, o === ALL ? 'All' : o)));
}

function multiSelect(variable, resolved, onChange) {
  const chosen = new Set(resolved.selected);
  const all = chosen.has(ALL);
  const summary = all ? 'All' : resolved.selected.length ? resolved.selected.join(' + ') : 'none';
  const details = h('details.dash-var-multi');
  const apply = () => {
    const boxes = [...details.querySelectorAll('input[type=checkbox]')];
    const values = boxes.filter((b) => b.checked && b.value !== ALL).map((b) => b.value);
    onChange(variable.name, values.length ? values : (variable.includeAll ? [ALL] : []));
  };
  const allBox = variable.includeAll ? h('label', h('input', { type: 'checkbox', value: ALL, checked: all, onchange: (e) => {
    if (e.target.checked) {
      details.querySelectorAll('input[type=checkbox]').forEach((b) => { b.checked = b.value === ALL; });
      onChange(variable.name, [ALL]);
    }
  } }), ' All') : null;
  details.append(
    h('summary', { title: summary }, summary.length > 40 ? `${summary.slice(0, 38)}…` : summary),
    h('div.dash-var-options', allBox, resolved.options.map((o) => h('label', h('input', { type: 'checkbox', value: o, checked: !all && chosen.has(o), onchange: apply }), ` ${o}`))));
  return details;
}

function textbox(variable, resolved, onChange) {
  const input = h('input', { type: 'text', value: resolved.selected[0] ?? variable.query ?? '', 'aria-label': variable.label || variable.name, size: 14 });
  const commit = () => onChange(variable.name, [input.value]);
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') commit(); });
  return input;
}

/**
 * The bar's elements. `variables` are the model's, `resolvedByName` the server's answer
 * ({options, selected}) by name.
 */
export function variablesBar(variables, resolvedByName, onChange) {
  return variables.filter((v) => v.hide !== 2 && v.type !== 'constant').map((variable) => {
    const resolved = resolvedByName.get(variable.name) || { options: [], selected: [] };
    let control;
    if (variable.type === 'textbox') control = textbox(variable, resolved, onChange);
    else if (variable.multi) control = multiSelect(variable, resolved, onChange);
    else control = singleSelect(variable, resolved, onChange);
    return h('label.dash-var', { dataset: { var: variable.name, selected: resolved.selected.join(',') } }, label(variable), control);
  });
}

/**
 * Writes `$name`, `${name}`, `${name:format}` and `[[name]]` in text (row titles, text panels)
 * with each variable's values joined by ", "; All is every option.
 */
export function interpolateText(text, resolvedByName) {
  const value = (name) => {
    const r = resolvedByName.get(name);
    if (!r) return null;
    const values = r.selected.includes(ALL) ? r.options : r.selected;
    return values.join(', ');
  };
  return String(text || '').replace(/\$\{([A-Za-z0-9_]+)(?::[^}]*)?\}|\[\[([A-Za-z0-9_]+)\]\]|\$([A-Za-z0-9_]+)/g,
    (m, a, b, c) => value(a || b || c) ?? m);
}
