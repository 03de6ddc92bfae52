// The gauge (an arc per value, min to max, thresholds as its outer band) and the bar gauge (one
// bar per value, horizontal or vertical). Values are reduced as the stat panel reduces them.
import { h, fill } from '../../dom.js';
import { display, thresholdColour, cssColour } from '../fields.js';
import { reducedValues } from './stat.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function bounds(field) {
  const min = field.min ?? 0;
  const max = field.max ?? (field.unit === 'percentunit' ? 1 : 100);
  return [min, max > min ? max : min + 1];
}

function arcPath(cx, cy, r, from, to) {
  const a0 = Math.PI * (1 - from);
  const a1 = Math.PI * (1 - to);
  const x0 = cx + r * Math.cos(a0);
  const y0 = cy - r * Math.sin(a0);
  const x1 = cx + r * Math.cos(a1);
  const y1 = cy - r * Math.sin(a1);
  return `M ${x0} ${y0} A ${r} ${r} 0 0 1 ${x1} ${y1}`;
}

function gauge(v, showMarkers, zone) {
  const [min, max] = bounds(v.field);
  const fraction = v.value === null || !Number.isFinite(v.value) ? 0 : Math.max(0, Math.min(1, (v.value - min) / (max - min)));
  const colour = display(v.field, v.value, zone).colour || thresholdColour(v.field, v.value) || '#4ea1ff';
  const el = svg('svg', { viewBox: '0 0 120 76', class: 'dash-gauge-svg' });
  el.append(svg('path', { d: arcPath(60, 64, 46, 0, 1), stroke: '#262b35', 'stroke-width': 12, fill: 'none' }));
  if (showMarkers) {
    const steps = (v.field.thresholds && v.field.thresholds.steps) || [];
    steps.forEach((s, i) => {
      const lo = i === 0 ? min : s.value;
      const hi = i + 1 < steps.length ? steps[i + 1].value : max;
      const pct = v.field.thresholds.mode === 'percentage';
      const f0 = pct ? lo / 100 : (lo - min) / (max - min);
      const f1 = pct ? hi / 100 : (hi - min) / (max - min);
      const a = Math.max(0, Math.min(1, i === 0 ? 0 : f0));
      const b = Math.max(0, Math.min(1, f1));
      if (b > a) el.append(svg('path', { d: arcPath(60, 64, 56, a, b), stroke: cssColour(s.color), 'stroke-width': 3, fill: 'none' }));
    });
  }
  if (fraction > 0) el.append(svg('path', { d: arcPath(60, 64, 46, 0, Math.max(0.005, fraction)), stroke: colour, 'stroke-width': 12, fill: 'none' }));
  const text = svg('text', { x: 60, y: 62, 'text-anchor': 'middle', fill: colour, 'font-size': 16, 'font-weight': 600 });
  text.textContent = display(v.field, v.value, zone).text;
  el.append(text);
  return el;
}

export function renderGauge(card, data, ctx) {
  const values = reducedValues(data, ctx.panel);
  const shown = values.filter((v) => v.value !== null && v.value !== undefined);
  if (!shown.length) {
    card.empty();
    return;
  }
  card.clear();
  const markers = ctx.panel.options.showThresholdMarkers !== false;
  fill(card.body, h('div.dash-gauge-grid', { style: { gridTemplateColumns: `repeat(${Math.min(values.length, 8)}, 1fr)` } },
    values.map((v) => h('div.dash-gauge', { dataset: { value: v.value ?? '' } }, gauge(v, markers, ctx.zone), values.length > 1 ? h('div.dash-stat-name', v.name) : null))));
  card.drawn(values.length, shown.length);
}

export function renderBarGauge(card, data, ctx) {
  const values = reducedValues(data, ctx.panel);
  const shown = values.filter((v) => v.value !== null && v.value !== undefined);
  if (!shown.length) {
    card.empty();
    return;
  }
  card.clear();
  const vertical = ctx.panel.options.orientation === 'vertical';
  fill(card.body, h(`div.dash-bargauge${vertical ? '.vertical' : ''}`, values.map((v) => {
    const [min, max] = bounds(v.field);
    const fraction = v.value === null || !Number.isFinite(v.value) ? 0 : Math.max(0, Math.min(1, (v.value - min) / (max - min)));
    const shownValue = display(v.field, v.value, ctx.zone);
    const colour = shownValue.colour || thresholdColour(v.field, v.value) || '#4ea1ff';
    return h('div.dash-bar-row', { dataset: { value: v.value ?? '' } },
      h('span.dash-bar-name', v.name),
      h('span.dash-bar-track', h('span.dash-bar-fill', { style: vertical ? { height: `${fraction * 100}%`, background: colour } : { width: `${fraction * 100}%`, background: colour } })),
      h('span.dash-bar-value', { style: { color: colour } }, shownValue.text));
  })));
  card.drawn(values.length, shown.length);
}
