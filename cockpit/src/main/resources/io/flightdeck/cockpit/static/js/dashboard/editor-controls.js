// Small form controls for the panel editor. Each writes its value through `onChange` as the user
// types, so the editor's copy of the panel is always what the form shows.
import { h } from '../dom.js';

/** A text input; `onChange(text)`. */
export function textControl(name, label, value, onChange, attrs = {}) {
  return h('input', {
    type: 'text', name, 'aria-label': label, value: value ?? '', size: 14, ...attrs,
    oninput: (e) => onChange(e.target.value),
  });
}

/** A number input; `onChange(number or null when empty)`. */
export function numberControl(name, label, value, onChange, attrs = {}) {
  return h('input', {
    type: 'number', name, 'aria-label': label, value: value ?? '', step: 'any', style: { width: '7em' }, ...attrs,
    oninput: (e) => onChange(e.target.value.trim() === '' ? null : Number(e.target.value)),
  });
}

/** A select of `choices` ([value, text] pairs or plain values); `onChange(value)`. */
export function selectControl(name, label, choices, value, onChange) {
  const pairs = choices.map((c) => (Array.isArray(c) ? c : [c, c]));
  if (value !== undefined && value !== null && !pairs.some(([v]) => v === value)) pairs.push([value, value]);
  return h('select', { name, 'aria-label': label, onchange: (e) => onChange(e.target.value) },
    pairs.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
}

/** A checkbox; `onChange(boolean)`. */
export function checkControl(name, label, checked, onChange) {
  return h('label.dash-check', h('input', { type: 'checkbox', name, checked: Boolean(checked), onchange: (e) => onChange(e.target.checked) }), ` ${label}`);
}

/** A small button with an accessible name. */
export function smallButton(text, label, onClick) {
  return h('button.dash-small', { type: 'button', 'aria-label': label, title: label, onclick: onClick }, text);
}

/**
 * A JSON textarea for a value the editor has no form for; `onChange(value)` when the text parses,
 * and `problems` (a Map) holds the control's name while it does not, so the save can refuse.
 */
export function jsonControl(name, label, value, onChange, problems) {
  return h('textarea.mono', {
    name, 'aria-label': label, rows: 2, cols: 60,
    oninput: (e) => {
      try {
        onChange(JSON.parse(e.target.value));
        problems.delete(name);
      } catch (err) {
        problems.set(name, `${label}: ${err.message}`);
      }
    },
  }, JSON.stringify(value ?? null));
}
