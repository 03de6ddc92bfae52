// Grafana's calculateField transformation on our frames (series {refId, name, labels, x, y}).
// Grafana computes on one table joined by time; here the series taking part are lined up on the
// union of their times, and the result is one more series (or the only one, with replaceFields).
// Modes: binary (field or number, + - * / % ^), unary (abs, exp, ln, floor, ceil), reduceRow
// (a reducer across chosen series per time), index (the row number), cumulativeFunctions
// (running sum or mean) and windowFunctions (mean, stdDev or variance over a trailing or centred
// window). `alias` names the result; without it the name is Grafana's ("A + B", "abs(A)", "Total").
import { reduce, REDUCER_NAMES } from './fields.js';

export const BINARY_OPERATORS = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
  '^': (a, b) => a ** b,
};

export const UNARY_OPERATORS = {
  abs: Math.abs,
  exp: Math.exp,
  ln: Math.log,
  floor: Math.floor,
  ceil: Math.ceil,
};

export const WINDOW_REDUCERS = ['mean', 'stdDev', 'variance'];
export const CUMULATIVE_REDUCERS = ['sum', 'mean'];

/** An operand as Grafana writes it: "name", "2", 2, {fixed: "name"} or {matcher: {options: "name"}}. */
function operandText(operand) {
  if (operand === null || operand === undefined) return '';
  if (typeof operand === 'object') {
    if (operand.fixed !== undefined) return String(operand.fixed);
    if (operand.matcher && operand.matcher.options !== undefined) return String(operand.matcher.options);
    return '';
  }
  return String(operand);
}

/** Frames lined up on the union of their x: {x, columns}. */
function lineUp(frames) {
  const x = [...new Set(frames.flatMap((f) => f.x))].sort((a, b) => a - b);
  const index = new Map(x.map((v, i) => [v, i]));
  const columns = frames.map((f) => {
    const col = new Array(x.length).fill(null);
    f.x.forEach((xv, i) => { col[index.get(xv)] = f.y[i]; });
    return col;
  });
  return { x, columns };
}

const isNumber = (v) => v !== null && v !== undefined && Number.isFinite(v);

function binary(frames, o) {
  const op = BINARY_OPERATORS[o.operator || '+'];
  if (!op) throw new Error(`operator "${o.operator}" is not one of ${Object.keys(BINARY_OPERATORS).join(' ')}`);
  const sides = [o.left, o.right].map(operandText);
  const source = sides.map((text) => frames.find((f) => f.name === text) || null);
  sides.forEach((text, i) => {
    if (!source[i] && (text.trim() === '' || !Number.isFinite(Number(text)))) throw new Error(`no series named "${text}"`);
  });
  const { x, columns } = lineUp(source.filter(Boolean));
  let k = 0;
  const values = source.map((f, i) => (f ? columns[k++] : new Array(x.length).fill(Number(sides[i]))));
  const y = x.map((_, r) => (isNumber(values[0][r]) && isNumber(values[1][r]) ? op(values[0][r], values[1][r]) : null));
  return { x, y, name: `${sides[0]} ${o.operator || '+'} ${sides[1]}` };
}

function unary(frames, o) {
  const fn = UNARY_OPERATORS[o.operator || 'abs'];
  if (!fn) throw new Error(`function "${o.operator}" is not one of ${Object.keys(UNARY_OPERATORS).join(', ')}`);
  const f = frames.find((s) => s.name === o.fieldName);
  if (!f) throw new Error(`no series named "${o.fieldName ?? ''}"`);
  return { x: f.x.slice(), y: f.y.map((v) => (isNumber(v) ? fn(v) : null)), name: `${o.operator || 'abs'}(${o.fieldName})` };
}

function reduceRow(frames, o) {
  const include = o.include && o.include.length ? o.include : null;
  const chosen = include ? frames.filter((f) => include.includes(f.name)) : frames;
  if (!chosen.length) throw new Error(`none of the series ${include ? include.map((n) => `"${n}"`).join(', ') : ''} is in the panel`);
  const reducer = o.reducer || 'sum';
  const { x, columns } = lineUp(chosen);
  const y = x.map((_, r) => {
    const row = columns.map((c) => c[r]).filter((v) => v !== null && v !== undefined);
    return row.length ? reduce(row, reducer) : null;
  });
  return { x, y, name: REDUCER_NAMES[reducer] || reducer };
}

function index(frames, o) {
  const { x } = lineUp(frames);
  const y = x.map((_, i) => (o.asPercentile ? (x.length > 1 ? i / (x.length - 1) : 0) : i));
  return { x, y, name: 'Row' };
}

/** The frame a cumulative or window function works on: the named one, or the only one. */
function oneField(frames, name) {
  const f = name ? frames.find((s) => s.name === name) : frames.length === 1 ? frames[0] : null;
  if (!f) throw new Error(name ? `no series named "${name}"` : 'choose the series (field) to compute on');
  return f;
}

function cumulative(frames, o) {
  const reducer = o.reducer || 'sum';
  if (!CUMULATIVE_REDUCERS.includes(reducer)) throw new Error(`cumulative reducer "${reducer}" is not one of ${CUMULATIVE_REDUCERS.join(', ')}`);
  const f = oneField(frames, o.field);
  let sum = 0;
  let count = 0;
  const y = f.y.map((v) => {
    if (isNumber(v)) {
      sum += v;
      count++;
    }
    return count ? (reducer === 'sum' ? sum : sum / count) : null;
  });
  return { x: f.x.slice(), y, name: `Cumulative ${REDUCER_NAMES[reducer] || reducer}` };
}

/** mean, stdDev or variance over each point's window (trailing: it and the ones before; centered). */
export function windowed(y, size, reducer = 'mean', centered = false) {
  const n = Math.max(1, Math.floor(size) || 1);
  const before = centered ? Math.floor((n - 1) / 2) : n - 1;
  const after = centered ? n - 1 - before : 0;
  return y.map((v, i) => {
    const values = y.slice(Math.max(0, i - before), Math.min(y.length, i + after + 1)).filter(isNumber);
    if (!values.length) return null;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    if (reducer === 'mean') return mean;
    const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
    return reducer === 'variance' ? variance : Math.sqrt(variance);
  });
}

function windowSize(o, length) {
  if (o.windowSizeMode === 'percentage') return Math.max(1, Math.round(length * (Number(o.windowSize) || 0.1)));
  return Number(o.windowSize) || 5;
}

function windowFunction(frames, o) {
  const reducer = o.reducer || 'mean';
  if (!WINDOW_REDUCERS.includes(reducer)) throw new Error(`window reducer "${reducer}" is not one of ${WINDOW_REDUCERS.join(', ')}`);
  const f = oneField(frames, o.field);
  const y = windowed(f.y, windowSize(o, f.y.length), reducer, o.windowAlignment === 'centered');
  return { x: f.x.slice(), y, name: `${o.windowAlignment === 'centered' ? 'Centered' : 'Trailing'} moving ${REDUCER_NAMES[reducer] || reducer}` };
}

const MODES = {
  binary: (frames, options) => binary(frames, options.binary || {}),
  unary: (frames, options) => unary(frames, options.unary || {}),
  reduceRow: (frames, options) => reduceRow(frames, options.reduce || {}),
  index: (frames, options) => index(frames, options.index || {}),
  cumulativeFunctions: (frames, options) => cumulative(frames, options.cumulative || {}),
  windowFunctions: (frames, options) => windowFunction(frames, options.window || {}),
};

export const CALCULATE_MODES = Object.keys(MODES);

/**
 * The transformation on data {frames, table, notes}. A windowFunctions without a field, as older
 * Flightdeck dashboards have it, averages every series in place (a moving mean of each).
 * Answers null for a mode it does not know; a mode whose options do not fit leaves the frames
 * as they were and says why in a note.
 */
export function calculateField(data, options) {
  const mode = options.mode || 'reduceRow';
  if (mode === 'windowFunctions' && !(options.window && options.window.field)) {
    const w = options.window || {};
    const reducer = w.reducer || 'mean';
    if (!WINDOW_REDUCERS.includes(reducer)) return null;
    return { ...data, frames: data.frames.map((f) => ({ ...f, y: windowed(f.y, windowSize(w, f.y.length), reducer, w.windowAlignment === 'centered') })) };
  }
  const compute = MODES[mode];
  if (!compute) return null;
  let result;
  try {
    result = compute(data.frames, options);
  } catch (e) {
    return { ...data, notes: [...data.notes, `calculateField (${mode}): ${e.message}`] };
  }
  const frame = { refId: 'calculated', labels: {}, x: result.x, y: result.y, name: options.alias || result.name };
  return { ...data, frames: options.replaceFields ? [frame] : [...data.frames, frame] };
}
