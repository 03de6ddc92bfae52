// Buckets that a heatmap computes from plain series, as Grafana's heatmap panel does with
// `calculate: true`: every point of every series counted in the cell of its time bucket and value
// bucket. calculation.xBuckets: {mode: "size", value: "1m"} (a duration) or {mode: "count",
// value: "20"}; without it one column per distinct time. calculation.yBuckets: {mode: "size",
// value: "5"} (a bucket's width) or {mode: "count", value: "10"} (10 when unset), and
// scale {type: "log", log: 2 | 10}: buckets a power of the base wide, `value` (in either mode)
// splitting each one, as Grafana's heatmap calculation does.
import { durationMs } from './time.js';
import { formatValue } from './fields.js';

const DEFAULT_Y_COUNT = 10;

const isNumber = (v) => v !== null && v !== undefined && Number.isFinite(v);

/** Column starts (seconds) and the function placing a time in one. */
function xBuckets(times, config) {
  const sorted = [...new Set(times)].sort((a, b) => a - b);
  const mode = config.mode;
  const value = config.value === undefined || config.value === null ? '' : String(config.value).trim();
  if (!value || sorted.length < 2) {
    const index = new Map(sorted.map((t, i) => [t, i]));
    return { starts: sorted, place: (t) => index.get(t), width: null };
  }
  const lo = sorted[0];
  const hi = sorted[sorted.length - 1];
  let width;
  if (mode === 'count') {
    const count = Math.max(1, Math.floor(Number(value)));
    if (!Number.isFinite(count)) throw new Error(`xBuckets count "${value}" is not a number`);
    width = (hi - lo) / count || 1;
  } else {
    const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : durationMs(value);
    if (!ms) throw new Error(`xBuckets size "${value}" is not a duration such as 30s or 1m`);
    width = ms / 1000;
  }
  // Sizes line up on whole multiples (a 1m column starts on a minute), as a clock reads them.
  const first = mode === 'count' ? lo : Math.floor(lo / width) * width;
  const n = Math.max(1, Math.floor((hi - first) / width) + 1);
  const starts = Array.from({ length: n }, (_, i) => first + i * width);
  return { starts, place: (t) => Math.min(n - 1, Math.floor((t - first) / width)), width };
}

/** Row bounds [lo, hi) ascending and the function placing a value in one (-1: not counted). */
function yBuckets(values, config) {
  const scale = config.scale || {};
  const log = scale.type === 'log' ? Number(scale.log) || 2 : null;
  const counted = log ? values.filter((v) => v > 0) : values;
  if (!counted.length) return { bounds: [], place: () => -1, dropped: values.length };
  let lo = Math.min(...counted);
  let hi = Math.max(...counted);
  const value = config.value === undefined || config.value === null || String(config.value).trim() === '' ? null : Number(config.value);
  if (value !== null && !(value > 0)) throw new Error(`yBuckets value "${config.value}" is not a positive number`);
  const dropped = values.length - counted.length;
  if (log) {
    // Work in log space: a bucket there is even; its bounds are powers of the base.
    const toLog = (v) => Math.log(v) / Math.log(log);
    // In either mode `value` splits each power into that many rows, as Grafana's calculation does.
    const step = 1 / Math.max(1, Math.floor(value || 1));
    const start = Math.floor(toLog(lo) / step + 1e-9) * step;
    const n = Math.max(1, Math.floor((toLog(hi) - start) / step + 1e-9) + 1);
    const bounds = Array.from({ length: n }, (_, i) => [log ** (start + i * step), log ** (start + (i + 1) * step)]);
    return { bounds, place: (v) => (v > 0 ? Math.min(n - 1, Math.max(0, Math.floor((toLog(v) - start) / step + 1e-9))) : -1), dropped };
  }
  let step;
  let start;
  if (config.mode === 'size' && value !== null) {
    step = value;
    start = Math.floor(lo / step) * step;
  } else {
    const count = Math.floor(value || DEFAULT_Y_COUNT);
    if (hi === lo) {
      lo -= 0.5;
      hi += 0.5;
    }
    step = (hi - lo) / count;
    start = lo;
  }
  const n = Math.max(1, Math.floor((hi - start) / step + 1e-9) + (config.mode === 'size' ? 1 : 0));
  const bounds = Array.from({ length: n }, (_, i) => [start + i * step, start + (i + 1) * step]);
  return { bounds, place: (v) => Math.min(n - 1, Math.max(0, Math.floor((v - start) / step + 1e-9))), dropped };
}

/**
 * The heatmap rows for `frames`: {x (column starts, seconds), rows: [{label, values}] from the
 * lowest bucket up, width (a column's seconds, null for one per time), notes}. A row is labelled
 * by its lower bound in `unit`.
 */
export function calculateBuckets(frames, calculation, unit) {
  const points = [];
  for (const f of frames) f.x.forEach((t, i) => { if (isNumber(f.y[i])) points.push([t, f.y[i]]); });
  const notes = [];
  if (!points.length) return { x: [], rows: [], notes, width: null };
  let columns;
  let buckets;
  try {
    columns = xBuckets(points.map((p) => p[0]), calculation.xBuckets || {});
    buckets = yBuckets(points.map((p) => p[1]), calculation.yBuckets || {});
  } catch (e) {
    return { x: [], rows: [], notes: [`heatmap calculation: ${e.message}`], width: null };
  }
  if (buckets.dropped) notes.push(`${buckets.dropped} value${buckets.dropped === 1 ? ' is' : 's are'} at or below 0, off the log scale, not counted`);
  const rows = buckets.bounds.map(([lo]) => ({ label: formatValue(lo, unit, Math.abs(lo) < 10 && lo % 1 ? 2 : undefined), values: new Array(columns.starts.length).fill(null) }));
  for (const [t, v] of points) {
    const r = buckets.place(v);
    if (r < 0) continue;
    const c = columns.place(t);
    rows[r].values[c] = (rows[r].values[c] ?? 0) + 1;
  }
  return { x: columns.starts, rows, notes, width: columns.width };
}
