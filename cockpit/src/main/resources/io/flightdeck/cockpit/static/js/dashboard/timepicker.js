// The time picker and refresh control: quick ranges, from/to as Grafana writes them (now-6h,
// epoch ms, a date), the auto-refresh interval and a refresh button.
import { h } from '../dom.js';
import { QUICK_RANGES, REFRESH_CHOICES, rangeLabel, parseTime } from './time.js';

/**
 * @param state {from, to, refresh, refreshChoices}
 * @param on {range(from, to), refresh(interval or ''), reload()}
 */
export function timePicker(state, on) {
  const fromInput = h('input', { type: 'text', value: state.from, size: 16, 'aria-label': 'From' });
  const toInput = h('input', { type: 'text', value: state.to, size: 16, 'aria-label': 'To' });
  const problem = h('span.dash-time-error', { role: 'alert' });
  const apply = () => {
    try {
      const now = Date.now();
      const a = parseTime(fromInput.value, now);
      const b = parseTime(toInput.value, now, true);
      if (b <= a) throw new Error('the range ends before it starts');
      problem.textContent = '';
      on.range(fromInput.value.trim(), toInput.value.trim());
    } catch (e) {
      problem.textContent = e.message;
    }
  };
  const quick = h('select', { 'aria-label': 'Time range', onchange: (e) => e.target.value && on.range(e.target.value, 'now') },
    h('option', { value: '' }, rangeLabel(state.from, state.to)),
    QUICK_RANGES.map((r) => h('option', { value: r }, rangeLabel(r, 'now'))));
  const choices = [...new Set([...(state.refreshChoices || []), ...REFRESH_CHOICES])];
  const refresh = h('select', { 'aria-label': 'Auto refresh', onchange: (e) => on.refresh(e.target.value) },
    h('option', { value: '', selected: !state.refresh || state.refresh === 'off' }, 'Auto refresh off'),
    choices.map((c) => h('option', { value: c, selected: state.refresh === c }, `every ${c}`)));
  [fromInput, toInput].forEach((i) => i.addEventListener('keydown', (e) => { if (e.key === 'Enter') apply(); }));
  return h('div.dash-time', quick,
    h('details.dash-time-custom', h('summary', 'Custom'),
      h('label', 'From ', fromInput), h('label', 'To ', toInput),
      h('button', { type: 'button', onclick: apply }, 'Apply'), problem),
    refresh,
    h('button', { type: 'button', title: 'Run every query again', onclick: () => on.reload() }, 'Refresh'));
}
