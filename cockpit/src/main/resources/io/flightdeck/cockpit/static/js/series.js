// Turns /api/v1/cockpit/series results into what a Chart draws: lines (raw faint and smoothed
// bold), min/median/max bands with the outliers named, and NaN/Inf markers.
import { num } from './api.js';
import { PALETTE } from './chart.js';
import { debiasedEma } from './smooth.js';

const HIDDEN_LABELS = new Set(['__name__', 'run', 'job', 'logdir', 'UUID', 'modelName', 'pci_bus_id', 'DCGM_FI_DRIVER_VERSION', 'device_name', 'Hostname', 'instance', 'gpu']);

/** A short name for a series: host/gpu for GPUs, else its distinguishing labels. */
export function seriesLabel(metric, fallback) {
  const m = metric || {};
  const host = m.Hostname || m.host || (m.instance ? m.instance.replace(/:\d+$/, '') : null);
  if (m.gpu !== undefined && host) return `${host}/gpu${m.gpu}`;
  const rest = Object.entries(m).filter(([k]) => !HIDDEN_LABELS.has(k));
  if (m.tag) return m.tag;
  const parts = rest.map(([k, v]) => (k === 'device' || k === 'mode' || k === 'cpu' ? v : `${k}=${v}`));
  if (host) parts.unshift(host);
  if (parts.length) return parts.join(' ');
  return fallback || m.__name__ || 'value';
}

/**
 * Lines and bands of one query result.
 * opts: {label(metric) | labelPrefix, colourIndex (start in the palette), colour (fixed),
 *        smoothing, scale, envelopes (min–max shading per series)}
 */
export function toDrawables(result, opts = {}) {
  const out = { lines: [], bands: [], nonFinite: [] };
  if (!result) return out;
  let colourIndex = opts.colourIndex || 0;
  const colourOf = () => opts.colour || PALETTE[colourIndex++ % PALETTE.length];
  const nameOf = (metric) => {
    const base = opts.label ? opts.label(metric) : seriesLabel(metric, opts.fallbackLabel);
    return opts.labelPrefix ? `${opts.labelPrefix}${base ? ` ${base}` : ''}` : base;
  };
  if (result.band) {
    const b = result.band;
    const colour = colourOf();
    const prefix = opts.labelPrefix ? `${opts.labelPrefix} ` : '';
    out.bands.push({ label: opts.bandLabel || `${prefix}min–max`, colour, x: b.x, lo: b.min.map(num), hi: b.max.map(num), scale: opts.scale });
    const median = b.median.map(num);
    if (opts.smoothing > 0) {
      out.lines.push({ label: `${prefix}median (raw)`, colour, x: b.x, y: median, width: 1, alpha: 0.3, scale: opts.scale, legend: false, counted: false });
      out.lines.push({ label: `${prefix}median`, colour, x: b.x, y: debiasedEma(median, opts.smoothing), width: 2, counted: false, scale: opts.scale });
    } else {
      out.lines.push({ label: `${prefix}median`, colour, x: b.x, y: median, width: 2, counted: false, scale: opts.scale });
    }
    // A band has no place for NaN or Inf: the server counts them per bucket, and each is marked.
    (b.nonfinite || []).forEach((n, i) => {
      if (num(n) > 0) out.nonFinite.push({ x: b.x[i], label: `${prefix}${num(n)} series NaN or Inf` });
    });
    for (const o of b.outliers || []) {
      const y = o.last.map(num);
      out.lines.push({ label: nameOf(o.metric), colour: colourOf(), x: o.x, y, width: 1.2, scale: opts.scale, outlier: true });
    }
    return out;
  }
  const few = (result.series || []).length <= 4;
  for (const s of result.series || []) {
    const colour = colourOf();
    const raw = s.last.map(num);
    s.x.forEach((x, i) => {
      if (raw[i] !== null && !Number.isFinite(raw[i])) out.nonFinite.push({ x, label: nameOf(s.metric) });
    });
    const label = nameOf(s.metric);
    if (opts.envelopes && few && s.min && s.max) {
      const lo = s.min.map(num);
      const hi = s.max.map(num);
      if (lo.some((v, i) => v !== hi[i])) {
        out.bands.push({ label: `${label} range`, colour, x: s.x, lo, hi, scale: opts.scale, counted: false });
      }
    }
    if (opts.smoothing > 0) {
      out.lines.push({ label: `${label} (raw)`, colour, x: s.x, y: raw, width: 1, alpha: 0.3, scale: opts.scale, legend: false });
      out.lines.push({ label, colour, x: s.x, y: debiasedEma(raw, opts.smoothing), width: 2, scale: opts.scale, counted: false });
    } else {
      out.lines.push({ label, colour, x: s.x, y: raw, width: 1.5, scale: opts.scale });
    }
  }
  return out;
}

/** Concatenates drawables. */
export function merge(...parts) {
  return {
    lines: parts.flatMap((p) => p.lines),
    bands: parts.flatMap((p) => p.bands),
    nonFinite: parts.flatMap((p) => p.nonFinite),
  };
}
