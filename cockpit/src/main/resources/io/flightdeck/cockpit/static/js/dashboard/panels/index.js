// Which function draws which panel kind, and the placeholder for the kinds Flightdeck does not draw.
import { h, fill } from '../../dom.js';
import { renderTimeseries } from './timeseries.js';
import { renderStat } from './stat.js';
import { renderGauge, renderBarGauge } from './gauge.js';
import { renderTable } from './table.js';
import { renderHeatmap } from './heatmap.js';
import { renderText } from './text.js';
import { renderStateTimeline } from './state-timeline.js';

const RENDERERS = {
  timeseries: renderTimeseries,
  stat: renderStat,
  gauge: renderGauge,
  bargauge: renderBarGauge,
  table: renderTable,
  heatmap: renderHeatmap,
  text: renderText,
  'state-timeline': renderStateTimeline,
};

/** Whether a kind needs its queries run (text and the placeholder do not). */
export function needsData(kind) {
  return kind !== 'text' && kind !== 'unsupported' && RENDERERS[kind] !== undefined;
}

/** Draws `data` (frames after transforms) into the card as `kind`. */
export function renderPanel(kind, card, data, ctx) {
  const render = RENDERERS[kind];
  if (!render) {
    renderUnsupported(card, ctx.panel);
    return;
  }
  render(card, data, ctx);
}

function renderUnsupported(card, panel) {
  const options = panel.options || {};
  const type = options.type || panel.kind;
  card.clear();
  card.el.dataset.state = 'unsupported';
  card.el.dataset.series = '0';
  card.el.dataset.points = '0';
  fill(card.body, h('div.chart-msg.dash-unsupported',
    h('strong', `Panel type "${type}" is not drawn by Flightdeck.`),
    h('span.muted', options.message || 'It is kept as it was and written back on Grafana export.'),
    (panel.queries || []).length ? h('span.muted', `${panel.queries.length} quer${panel.queries.length === 1 ? 'y' : 'ies'}: ${panel.queries.map((q) => q.expr).join(' · ').slice(0, 200)}`) : null));
}
