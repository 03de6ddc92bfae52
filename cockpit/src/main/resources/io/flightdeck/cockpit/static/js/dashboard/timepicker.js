// The time picker and refresh control: quick ranges, from/to as Grafana writes them (now-6h,
// epoch ms, a date), the auto-refresh interval and a refresh button. Absolute times are shown and
// read in the dashboard's time zone, which the picker names.
import { h } from '../dom.js';
import { QUICK_RANGES, REFRESH_CHOICES, rangeLabel, parseTime } from './time.js';
import { formatTime, zoneLabel } from './timezone.js';

const EPOCH_MS = /^\d{10,}$/;

/**
 * @param state {from, to, refresh, refreshChoices, zone (resolveZone's answer)}
 * @param on {range(from, to), refresh(interval or ''), reload()}
 */
export function timePicker(state, on) {
  const zone = state.zone ? state.zone.zone : 'UTC';
  const shown = (v) => (EPOCH_MS.test(String(v)) ? formatTime(Number(v), zone) : v);
  const fromInput = h('input', { type: 'text', value: shown(state.from), size: 18, 'aria-label': 'From' });
  const toInput = h('input', { type: 'text', value: shown(state.to), size: 18, 'aria-label': 'To' });
  // An absolute time goes into the URL as epoch ms, as Grafana writes it; words stay words.
  const forUrl = (text, ms) => (/^now/.test(text.trim()) ? text.trim() : String(ms));
  const problem = h('span.dash-time-error', { role: 'alert' });
  const apply = () => {
    try {
      const now = Date.now();
      const a = parseTime(fromInput.value, now, false, zone);
      const b = parseTime(toInput.value, now, true, zone);
      if (b <= a) throw new Error('the range ends before it starts');
      problem.textContent = '';
      on.range(forUrl(fromInput.value, a), forUrl(toInput.value, b));
    } catch (e) {
      problem.textContent = e.message;
    }
  };
  const quick = h('select', { 'aria-label': 'Time range', onchange: (e) => e.target.value && on.range(e.target.value, 'now') },
    h('option', { value: '' }, rangeLabel(state.from, state.to, zone)),
    QUICK_RANGES.map((r) => h('option', { value: r }, rangeLabel(r, 'now'))));
  const choices = [...new Set([...(state.refreshChoices || []), ...REFRESH_CHOICES])];
  const refresh = h('select', { 'aria-label': 'Auto refresh', onchange: (e) => on.refresh(e.target.value) },
    h('option', { value: '', selected: !state.refresh || state.refresh === 'off' }, 'Auto refresh off'),
    choices.map((c) => h('option', { value: c, selected: state.refresh === c }, `every ${c}`)));
  [fromInput, toInput].forEach((i) => i.addEventListener('keydown', (e) => { if (e.key === 'Enter') apply(); }));
  const zoneName = state.zone ? zoneLabel(state.zone) : 'UTC';
  return h('div.dash-time', quick,
    h('span.dash-tz.muted', { title: 'Times are shown in this zone (the dashboard\'s timezone, or the URL\'s timezone=)', dataset: { timezone: state.zone ? state.zone.name : 'utc' } }, zoneName),
    h('details.dash-time-custom', h('summary', 'Custom'),
      h('label', 'From ', fromInput), h('label', 'To ', toInput),
      h('button', { type: 'button', onclick: apply }, 'Apply'), problem),
    refresh,
    h('button', { type: 'button', title: 'Run every query again', onclick: () => on.reload() }, 'Refresh'));
}
