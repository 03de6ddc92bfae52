// The state timeline: one lane per series, each run of equal values a coloured band (colour from
// value mappings, else thresholds, else one colour per distinct value), its text on the band.
import { h, fill } from '../../dom.js';
import { PALETTE } from '../../chart.js';
import { fieldFor, display, thresholdColour, displayName } from '../fields.js';
import { formatTime } from '../timezone.js';

export function renderStateTimeline(card, data, ctx) {
  const frames = data.frames.filter((f) => f.y.some((v) => v !== null));
  const points = frames.reduce((n, f) => n + f.y.filter((v) => v !== null).length, 0);
  if (!frames.length || !points) {
    card.empty();
    return;
  }
  card.clear();
  const x0 = Math.min(...frames.map((f) => f.x[0]));
  const x1 = Math.max(...frames.map((f) => f.x[f.x.length - 1]));
  const span = x1 > x0 ? x1 - x0 : 1;
  const distinct = new Map();
  const colourOf = (field, v) => {
    const d = display(field, v, ctx.zone);
    if (d.colour) return d.colour;
    if (field.thresholds && field.thresholds.steps && field.thresholds.steps.length > 1) return thresholdColour(field, v);
    const key = String(v);
    if (!distinct.has(key)) distinct.set(key, PALETTE[distinct.size % PALETTE.length]);
    return distinct.get(key);
  };
  fill(card.body, h('div.dash-timeline', frames.map((f) => {
    const field = fieldFor(ctx.panel.fieldConfig, f);
    const name = displayName(field, f);
    const when = (t) => (ctx.xMode === 'step' ? `step ${t}` : formatTime(t * 1000, ctx.zone));
    const bands = [];
    let start = 0;
    for (let i = 1; i <= f.y.length; i++) {
      if (i === f.y.length || f.y[i] !== f.y[start]) {
        if (f.y[start] !== null) {
          const end = i < f.x.length ? f.x[i] : x1;
          const left = ((f.x[start] - x0) / span) * 100;
          const width = Math.max(0.3, ((end - f.x[start]) / span) * 100);
          const d = display(field, f.y[start], ctx.zone);
          bands.push(h('span.dash-state', { style: { left: `${left}%`, width: `${width}%`, background: colourOf(field, f.y[start]) }, title: `${name}: ${d.text} from ${when(f.x[start])} to ${when(end)}` }, width > 6 ? d.text : ''));
        }
        start = i;
      }
    }
    return h('div.dash-lane', h('span.dash-lane-name', name), h('span.dash-lane-track', bands));
  })));
  card.drawn(frames.length, points);
}
