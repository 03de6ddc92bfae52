// The transformations a panel's Grafana `transformations` list names, applied in order to its
// frames. Grafana's own ids where one exists (reduce, joinByField, calculateField in
// calculate-field.js); ours, prefixed "flightdeck.", for the rest. dashboards/docs/dashboards.md lists them.
// Data is {frames, table, notes}: frames are series {refId, name, labels, x, y, anomalies?};
// a transform that makes a table (reduce by rows, joinByField) sets table {columns, rows}.
import { reduce, median, REDUCER_NAMES } from './fields.js';
import { calculateField } from './calculate-field.js';

function mapFrames(data, fn) {
  return { ...data, frames: data.frames.map((f) => ({ ...f, ...fn(f) })) };
}

/** y[i] - y[i-1]: the change between consecutive points (the first point has none). */
export function difference(y) {
  return y.map((v, i) => (i === 0 || v === null || y[i - 1] === null ? null : v - y[i - 1]));
}

/** Normalised to the first finite value (mode "first") or to 0..1 over the series' range ("range"). */
export function normalize(y, mode) {
  const finite = y.filter((v) => v !== null && Number.isFinite(v));
  if (!finite.length) return y;
  if (mode === 'range') {
    const lo = Math.min(...finite);
    const hi = Math.max(...finite);
    return y.map((v) => (v === null ? null : hi > lo ? (v - lo) / (hi - lo) : 0));
  }
  const first = finite[0];
  return y.map((v) => (v === null || first === 0 ? null : v / first));
}

/** The mean of the last `window` points (fewer at the start), nulls skipped. */
export function movingAverage(y, window) {
  const n = Math.max(1, Math.floor(window) || 1);
  return y.map((v, i) => {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, i - n + 1); j <= i; j++) {
      if (y[j] !== null && Number.isFinite(y[j])) {
        sum += y[j];
        count++;
      }
    }
    return v === null || count === 0 ? null : sum / count;
  });
}

/**
 * Indexes of points whose robust z-score, 0.6745 (y - median) / MAD, exceeds `threshold`
 * (3.5 by default: Iglewicz and Hoaglin's cut-off). A series whose MAD is 0 marks nothing.
 */
export function anomalies(y, threshold = 3.5) {
  const finite = y.filter((v) => v !== null && Number.isFinite(v));
  const m = median(finite);
  if (m === null) return [];
  const mad = median(finite.map((v) => Math.abs(v - m)));
  if (!mad) return [];
  const marks = [];
  y.forEach((v, i) => {
    if (v !== null && Number.isFinite(v) && Math.abs((0.6745 * (v - m)) / mad) > threshold) marks.push(i);
  });
  return marks;
}

function reduceTransform(data, options) {
  const reducers = options.reducers && options.reducers.length ? options.reducers : ['lastNotNull'];
  if (options.mode === 'reduceFields') {
    return mapFrames(data, (f) => ({ x: f.x.slice(-1), y: [reduce(f.y, reducers[0])] }));
  }
  const columns = ['Field', ...reducers.map((r) => REDUCER_NAMES[r] || r)];
  const rows = data.frames.map((f) => [f.name, ...reducers.map((r) => reduce(f.y, r))]);
  return { ...data, table: { columns, rows } };
}

function joinByField(data, options) {
  const by = options.byField || 'Time';
  const names = [...new Set(data.frames.map((f) => f.name))];
  const rowsByKey = new Map();
  const inner = options.mode === 'inner';
  for (const f of data.frames) {
    f.x.forEach((x, i) => {
      const key = by === 'Time' ? x : f.labels[by];
      if (key === undefined) return;
      if (!rowsByKey.has(key)) rowsByKey.set(key, new Map());
      rowsByKey.get(key).set(f.name, f.y[i]);
    });
  }
  const keys = [...rowsByKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = keys
    .map((k) => [by === 'Time' ? { time: k } : k, ...names.map((n) => rowsByKey.get(k).get(n) ?? null)])
    .filter((r) => !inner || r.slice(1).every((v) => v !== null));
  return { ...data, table: { columns: [by, ...names], rows } };
}

const TRANSFORMS = {
  reduce: reduceTransform,
  joinByField,
  seriesToColumns: (data, options) => joinByField(data, options),
  calculateField,
  'flightdeck.difference': (data) => mapFrames(data, (f) => ({ y: difference(f.y) })),
  'flightdeck.normalize': (data, options) => mapFrames(data, (f) => ({ y: normalize(f.y, options.mode || 'first') })),
  'flightdeck.movingAverage': (data, options) => mapFrames(data, (f) => ({ y: movingAverage(f.y, Number(options.window) || 5) })),
  'flightdeck.anomalies': (data, options) => mapFrames(data, (f) => ({ anomalies: anomalies(f.y, Number(options.threshold) || 3.5) })),
};

/**
 * Applies the panel's transformations in order; one we do not know (or a calculateField mode we do
 * not compute) is skipped and named in `notes`, so the panel can say so.
 */
export function applyTransforms(frames, transformations) {
  let data = { frames, table: null, notes: [] };
  for (const t of transformations || []) {
    if (!t || t.disabled) continue;
    const fn = TRANSFORMS[t.id];
    const next = fn ? fn(data, t.options || {}) : null;
    if (next) data = next;
    else data = { ...data, notes: [...data.notes, `transformation "${t.id}" is not applied`] };
  }
  return data;
}
