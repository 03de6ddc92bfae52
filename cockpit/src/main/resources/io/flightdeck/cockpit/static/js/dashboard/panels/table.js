// The table panel: a table a transformation made (reduce, joinByField), or one row per series
// with its labels as columns and its last value, as Grafana shows an instant query.
import { h, fill } from '../../dom.js';
import { fieldFor, display, thresholdColour, reduce } from '../fields.js';
import { formatTime } from '../timezone.js';

function cell(value, field, zone) {
  if (value && typeof value === 'object' && 'time' in value) return h('td.mono', formatTime(value.time * 1000, zone));
  if (typeof value === 'number' || value === null) {
    const shown = display(field, value, zone);
    const colour = field.custom && field.custom.cellOptions && field.custom.cellOptions.type === 'color-text' ? thresholdColour(field, value) : null;
    return h('td.num', { style: colour ? { color: colour } : {} }, value === null ? '–' : shown.text);
  }
  return h('td', String(value));
}

export function renderTable(card, data, ctx) {
  const { panel } = ctx;
  const defaults = (panel.fieldConfig && panel.fieldConfig.defaults) || {};
  let columns;
  let rows;
  if (data.table) {
    ({ columns, rows } = data.table);
  } else {
    const frames = data.frames;
    const labelNames = [...new Set(frames.flatMap((f) => Object.keys(f.labels)))].filter((k) => k !== '__name__').sort();
    const hasName = frames.some((f) => f.labels.__name__);
    columns = [...(hasName ? ['__name__'] : []), ...labelNames, 'Value'];
    rows = frames.map((f) => [...(hasName ? [f.labels.__name__ ?? ''] : []), ...labelNames.map((k) => f.labels[k] ?? ''), reduce(f.y, 'lastNotNull')]);
  }
  if (!rows.length) {
    card.empty();
    return;
  }
  card.clear();
  const fieldOf = (name) => fieldFor(panel.fieldConfig, { name, refId: '', labels: {} });
  const values = rows.reduce((n, r) => n + r.filter((v) => typeof v === 'number').length, 0);
  fill(card.body, h('div.table-wrap.dash-table', h('table', { 'data-table': panel.title },
    h('thead', h('tr', columns.map((c) => h('th', c)))),
    h('tbody', rows.slice(0, 1000).map((r) => h('tr', r.map((v, i) => cell(v, i === 0 ? defaults : fieldOf(columns[i]), ctx.zone))))))));
  card.drawn(rows.length, values);
}
