// The stat panel: each series reduced by the panel's calc (reduceOptions; every value when
// reduceOptions.values is set) and shown as a number in its unit, coloured by thresholds or value
// mappings, with a small area graph behind it when graphMode is "area".
import { h, fill } from '../../dom.js';
import { fieldFor, reduce, display, thresholdColour, displayName } from '../fields.js';

/** The values a single-value panel (stat, gauge, bar gauge) shows: [{name, value, field, frame}]. */
export function reducedValues(data, panel) {
  const ro = panel.options.reduceOptions || {};
  const calc = (ro.calcs && ro.calcs[0]) || 'lastNotNull';
  const out = [];
  for (const f of data.frames) {
    const field = fieldFor(panel.fieldConfig, f);
    if (field.custom && field.custom.hideFrom && field.custom.hideFrom.viz) continue;
    if (ro.values) {
      f.y.forEach((v) => out.push({ name: displayName(field, f), value: v, field, frame: f }));
    } else {
      out.push({ name: displayName(field, f), value: reduce(f.y, calc), field, frame: f });
    }
  }
  const limit = ro.values ? Number(ro.limit) || 5000 : Infinity;
  return out.slice(0, limit);
}

function sparkline(frame, colour) {
  const ys = frame.y.filter((v) => v !== null && Number.isFinite(v));
  if (ys.length < 2) return null;
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const pts = frame.y.map((v, i) => (v === null || !Number.isFinite(v) ? null : `${(i / (frame.y.length - 1)) * 100},${hi > lo ? 30 - ((v - lo) / (hi - lo)) * 28 : 15}`)).filter(Boolean);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 100 30');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('class', 'dash-stat-spark');
  const poly = document.createElementNS('http://www.w3.org/2000/svg', 'polygon');
  poly.setAttribute('points', `0,30 ${pts.join(' ')} 100,30`);
  poly.setAttribute('fill', colour);
  poly.setAttribute('fill-opacity', '0.18');
  svg.append(poly);
  return svg;
}

export function renderStat(card, data, ctx) {
  const { panel } = ctx;
  const values = reducedValues(data, panel);
  const shown = values.filter((v) => v.value !== null && v.value !== undefined);
  if (!shown.length) {
    card.empty();
    return;
  }
  const colourMode = panel.options.colorMode || 'value';
  const textMode = panel.options.textMode || 'auto';
  const withNames = textMode === 'value_and_name' || textMode === 'name' || (textMode === 'auto' && values.length > 1);
  card.clear();
  fill(card.body, h('div.dash-stat-grid', { style: { gridTemplateColumns: `repeat(${Math.min(values.length, panel.options.orientation === 'horizontal' ? 1 : 6)}, 1fr)` } },
    values.map((v) => {
      const shownValue = display(v.field, v.value, ctx.zone);
      const colour = shownValue.colour || thresholdColour(v.field, v.value) || '#c9d1d9';
      const tile = h('div.dash-stat', {
        style: colourMode === 'background' ? { background: colour, color: '#0d1117' } : {},
        dataset: { value: v.value ?? '' },
      },
      panel.options.graphMode === 'area' && !panel.options.reduceOptions?.values ? sparkline(v.frame, colour) : null,
      withNames ? h('div.dash-stat-name', v.name) : null,
      textMode === 'name' ? null : h('div.dash-stat-value', { style: colourMode === 'value' ? { color: colour } : {} }, shownValue.text));
      return tile;
    })));
  card.drawn(values.length, shown.length);
}
