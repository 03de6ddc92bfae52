// Grafana's Prometheus annotations: each enabled query's non-zero samples become events, those
// closer than the step merged into one region, titled by titleFormat ({{label}}), drawn on every
// time-series panel. The built-in "Annotations & Alerts" source is Grafana's own database: here
// the run page's events play that part, so it draws nothing.
import { get, num } from '../api.js';
import { durationMs } from './time.js';

const DEFAULT_STEP_MS = 60_000;

function format(template, labels, fallback) {
  if (!template) return fallback;
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (m, name) => labels[name] ?? '');
}

/**
 * The regions of every enabled PromQL annotation between `fromMs` and `toMs`:
 * [{start, end (unix s), title, text, colour, source}]; a failing source is a region-less note.
 */
export async function loadAnnotations(annotations, { fromMs, toMs, interpolate, signal }) {
  const sources = (annotations || []).filter((a) => a.enable && !a.builtIn && a.expr);
  const regions = [];
  const notes = [];
  await Promise.all(sources.map(async (a) => {
    const stepMs = Math.max(1000, durationMs(a.step || '') || DEFAULT_STEP_MS);
    try {
      const d = await get('query_range', { query: interpolate(a.expr), start: fromMs / 1000, end: toMs / 1000, step: stepMs / 1000 }, signal);
      for (const s of d.result || []) {
        let open = null;
        for (const [t, v] of s.values) {
          const value = num(v);
          if (value === 0 || value === null || Number.isNaN(value)) continue;
          const time = a.useValueForTime ? value / 1000 : t;
          if (open && time - open.end <= stepMs / 1000) {
            open.end = time;
          } else {
            if (open) regions.push(open);
            open = {
              start: time, end: time, colour: a.iconColor || '#f2cc60', source: a.name,
              title: format(a.titleFormat, s.metric, a.name),
              text: format(a.textFormat, s.metric, ''),
            };
          }
        }
        if (open) regions.push(open);
      }
    } catch (e) {
      if (e.name !== 'AbortError') notes.push(`annotation ${a.name}: ${e.message}`);
    }
  }));
  return { regions, notes };
}

/** A uPlot draw hook that shades each region (a line for an instant) in the plot area. */
export function drawAnnotations(u, regions) {
  if (!regions || !regions.length) return;
  const c = u.ctx;
  const { top, height, left, width } = u.bbox;
  c.save();
  for (const r of regions) {
    const x0 = u.valToPos(r.start, 'x', true);
    const x1 = u.valToPos(r.end, 'x', true);
    if (x1 < left || x0 > left + width) continue;
    c.globalAlpha = 0.18;
    c.fillStyle = r.colour;
    if (x1 - x0 >= 2) c.fillRect(Math.max(left, x0), top, Math.min(left + width, x1) - Math.max(left, x0), height);
    c.globalAlpha = 0.9;
    c.strokeStyle = r.colour;
    c.beginPath();
    c.moveTo(x0, top);
    c.lineTo(x0, top + height);
    c.stroke();
  }
  c.restore();
}
