// Grafana's field config read the way its panels read it: units and decimals, thresholds and their
// colours, value mappings, min/max, per-series overrides, and the reducers ("calcs") used by
// legends, stat, gauge and the reduce transform.
import { fmtNum } from '../format.js';
import { formatDateUnit } from './timezone.js';

const NAMED_COLOURS = {
  green: '#3fb950', 'dark-green': '#1a7f37', 'semi-dark-green': '#2ea043', 'light-green': '#56d364', 'super-light-green': '#8ddb8c',
  red: '#e5534b', 'dark-red': '#b62324', 'semi-dark-red': '#d1242f', 'light-red': '#ff7b72', 'super-light-red': '#ffa198',
  orange: '#f2a93b', 'dark-orange': '#bd561d', 'semi-dark-orange': '#db6d28', 'light-orange': '#ffa657',
  yellow: '#d4c84a', 'dark-yellow': '#9e6a03', 'semi-dark-yellow': '#bf8700', 'light-yellow': '#e3b341',
  blue: '#4ea1ff', 'dark-blue': '#1f6feb', 'semi-dark-blue': '#388bfd', 'light-blue': '#79c0ff',
  purple: '#b083f0', 'dark-purple': '#8957e5', 'semi-dark-purple': '#a371f7', 'light-purple': '#d2a8ff',
  transparent: 'rgba(0,0,0,0)', text: '#c9d1d9',
};

/** A Grafana colour (a name such as "semi-dark-red", #hex or rgba()) as CSS. */
export function cssColour(c) {
  if (!c) return '#4ea1ff';
  return NAMED_COLOURS[c] || c;
}

const BIN = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const DEC = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

function scaled(v, base, units, decimals, suffix = '') {
  let i = 0;
  let a = Math.abs(v);
  while (a >= base && i < units.length - 1) {
    a /= base;
    i++;
  }
  return `${num(Math.sign(v) * a, decimals)} ${units[i]}${suffix}`;
}

function num(v, decimals) {
  if (decimals !== undefined && decimals !== null && Number.isFinite(decimals)) return v.toFixed(decimals);
  return fmtNum(v);
}

function duration(v, decimals, unitMs) {
  const ms = v * unitMs;
  const a = Math.abs(ms);
  if (a < 1) return `${num(ms * 1000, decimals)} µs`;
  if (a < 1000) return `${num(ms, decimals)} ms`;
  if (a < 60000) return `${num(ms / 1000, decimals)} s`;
  if (a < 3600000) return `${num(ms / 60000, decimals ?? 1)} min`;
  if (a < 86400000) return `${num(ms / 3600000, decimals ?? 1)} hour`;
  return `${num(ms / 86400000, decimals ?? 1)} day`;
}

/**
 * A value in a Grafana unit id ("percent", "bytes", "s", "watt"...), with optional decimals.
 * The dateTime units read it as epoch ms and write it on the clock of `zone` (the dashboard's time
 * zone, an IANA name; null: the browser's).
 */
export function formatValue(v, unit, decimals, zone = null) {
  if (v === null || v === undefined) return 'No data';
  if (typeof v === 'string') return v;
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const d = decimals === null || decimals === undefined ? undefined : Number(decimals);
  // Axis ticks near zero come as -1e-17 and the like: no "-0" on an axis.
  if (Math.abs(v) < 1e-12) v = 0;
  switch (unit) {
    case 'percent': return `${num(v, d)}%`;
    case 'percentunit': return `${num(v * 100, d)}%`;
    case 'bytes': case 'decbytes': return unit === 'bytes' ? scaled(v, 1024, BIN, d) : scaled(v, 1000, DEC, d);
    case 'kbytes': return scaled(v * 1024, 1024, BIN, d);
    case 'mbytes': return scaled(v * 1024 * 1024, 1024, BIN, d);
    case 'deckbytes': return scaled(v * 1000, 1000, DEC, d);
    case 'decmbytes': return scaled(v * 1e6, 1000, DEC, d);
    case 'bits': return scaled(v, 1000, ['b', 'kb', 'Mb', 'Gb', 'Tb'], d);
    case 'Bps': case 'binBps': return unit === 'binBps' ? scaled(v, 1024, BIN, d, '/s') : scaled(v, 1000, DEC, d, '/s');
    case 'bps': return scaled(v, 1000, ['b/s', 'kb/s', 'Mb/s', 'Gb/s', 'Tb/s'], d);
    case 'KBs': return scaled(v * 1000, 1000, DEC, d, '/s');
    case 's': return duration(v, d, 1000);
    case 'ms': return duration(v, d, 1);
    case 'µs': case 'us': return duration(v, d, 0.001);
    case 'ns': return duration(v, d, 0.000001);
    case 'dtdurations': case 'dtdurationms': return duration(v, d, unit === 'dtdurations' ? 1000 : 1);
    case 'hertz': return scaled(v, 1000, ['Hz', 'kHz', 'MHz', 'GHz', 'THz'], d);
    case 'rotmhz': return `${num(v, d)} MHz`;
    case 'celsius': return `${num(v, d)}°C`;
    case 'fahrenheit': return `${num(v, d)}°F`;
    case 'watt': return scaled(v, 1000, ['W', 'kW', 'MW'], d);
    case 'kwatt': return `${num(v, d)} kW`;
    case 'volt': return `${num(v, d)} V`;
    case 'amp': return `${num(v, d)} A`;
    case 'joule': return `${num(v, d)} J`;
    case 'ops': return `${num(v, d)} ops/s`;
    case 'iops': return `${num(v, d)} io/s`;
    case 'reqps': return `${num(v, d)} req/s`;
    case 'pps': return `${num(v, d)} p/s`;
    case 'cps': return `${num(v, d)} c/s`;
    case 'wps': return `${num(v, d)} wr/s`;
    case 'rps': return `${num(v, d)} rd/s`;
    case 'dateTimeAsIso': case 'dateTimeAsIsoNoDateIfToday': case 'dateTimeAsUS': case 'dateTimeAsUSNoDateIfToday':
    case 'dateTimeAsLocal': case 'dateTimeAsSystem': case 'dateTimeFromNow': return formatDateUnit(v, unit, zone);
    case undefined: case null: case '': case 'short': case 'none': return num(v, d);
    default: {
      // Grafana's custom units: "suffix:X", "prefix:X", or any other text used as a suffix.
      if (unit.startsWith('suffix:')) return `${num(v, d)}${unit.slice(7)}`;
      if (unit.startsWith('prefix:')) return `${unit.slice(7)}${num(v, d)}`;
      return `${num(v, d)} ${unit}`;
    }
  }
}

/**
 * The field config for one series: the defaults with every matching override applied, in order.
 * `frame` is {name, refId, labels, y}; `byValue` reduces its y.
 */
export function fieldFor(fieldConfig, frame) {
  const defaults = (fieldConfig && fieldConfig.defaults) || {};
  const field = { ...defaults, custom: { ...(defaults.custom || {}) } };
  for (const o of (fieldConfig && fieldConfig.overrides) || []) {
    if (!matches(o.matcher || {}, frame)) continue;
    for (const p of o.properties || []) {
      if (!p || typeof p.id !== 'string') continue;
      if (p.id.startsWith('custom.')) setPath(field.custom, p.id.slice(7).split('.'), p.value);
      else field[p.id] = p.value;
    }
  }
  return field;
}

function setPath(target, keys, value) {
  let t = target;
  keys.slice(0, -1).forEach((k) => { t[k] = { ...(t[k] || {}) }; t = t[k]; });
  t[keys[keys.length - 1]] = value;
}

/** Grafana's comparison operations (ComparisonOperation): "ne" is accepted beside "neq". */
export const COMPARISONS = {
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
  ne: (a, b) => a !== b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
};

/**
 * The byValue matcher: the series reduced by `reducer` (older dashboards say `reduce`), compared
 * by `op` with `value`. A series that reduces to no number matches nothing.
 */
export function matchesByValue(options, ys) {
  const opt = options || {};
  const reduced = reduce(ys || [], opt.reducer || opt.reduce || 'lastNotNull');
  const compare = COMPARISONS[opt.op || 'gte'];
  const value = Number(opt.value ?? 0);
  if (!compare || reduced === null || reduced === undefined || !Number.isFinite(reduced) || !Number.isFinite(value)) return false;
  return compare(reduced, value);
}

function matches(matcher, frame) {
  const opt = matcher.options;
  switch (matcher.id) {
    case 'byName': return frame.name === opt;
    case 'byRegexp': {
      try {
        return new RegExp(`^(?:${String(opt).replace(/^\/(.*)\/[a-z]*$/, '$1')})$`).test(frame.name);
      } catch (e) {
        return false;
      }
    }
    case 'byFrameRefID': return frame.refId === opt;
    // Every series here is a number field; the time field is the x axis, never a series.
    case 'byType': return opt === 'number';
    case 'byValue': return matchesByValue(opt, frame.y);
    default: return false;
  }
}

/**
 * The name a series is shown by: the field's displayName (with ${__field.name},
 * ${__field.labels.X} and ${__series.name} filled in) or its legend name.
 */
export function displayName(field, frame) {
  const text = field && field.displayName;
  if (!text) return frame.name;
  return String(text).replace(/\$\{__(field|series)\.(name|labels\.([a-zA-Z_][a-zA-Z0-9_]*)|displayName)\}/g, (m, kind, what, label) => {
    if (label) return (frame.labels || {})[label] ?? '';
    return frame.name;
  });
}

/** The colour of the highest threshold step at or below v (thresholds in Grafana's shape). */
export function thresholdColour(field, v) {
  const steps = (field.thresholds && field.thresholds.steps) || [];
  if (!steps.length || v === null || v === undefined || !Number.isFinite(v)) return null;
  let value = v;
  if (field.thresholds.mode === 'percentage') {
    const min = field.min ?? 0;
    const max = field.max ?? 100;
    value = max > min ? ((v - min) / (max - min)) * 100 : 0;
  }
  let colour = steps[0].color;
  for (const s of steps) if (s.value === null || s.value === undefined || value >= s.value) colour = s.color;
  return cssColour(colour);
}

/** Value mappings (value, range, special null/NaN) as display text, or null when none matches. */
export function mappedText(field, v) {
  for (const m of field.mappings || []) {
    const o = m.options || {};
    if (m.type === 'value' && v !== null && o[String(v)]) return o[String(v)];
    if (m.type === 'range' && v !== null && (o.from === null || o.from === undefined || v >= o.from) &&
        (o.to === null || o.to === undefined || v <= o.to)) return o.result;
    if (m.type === 'special' && ((o.match === 'null' && (v === null || v === undefined)) ||
        (o.match === 'nan' && Number.isNaN(v)) || (o.match === 'null+nan' && (v === null || Number.isNaN(v))))) return o.result;
  }
  return null;
}

/** A value as the panel shows it: a mapping's text or the number in its unit (dates in `zone`). */
export function display(field, v, zone = null) {
  const mapped = mappedText(field, v);
  if (mapped && mapped.text !== undefined && mapped.text !== '') return { text: mapped.text, colour: mapped.color ? cssColour(mapped.color) : null };
  return { text: formatValue(v, field.unit, field.decimals, zone), colour: mapped && mapped.color ? cssColour(mapped.color) : null };
}

const finite = (ys) => ys.filter((v) => v !== null && v !== undefined && Number.isFinite(v));
// "Not null" keeps NaN, as Grafana does: a NaN from Prometheus is shown as NaN, not as no data.
const notNull = (ys) => ys.filter((v) => v !== null && v !== undefined);

/** Grafana's reducers by id; each takes the y values (nulls included) and returns a number or null. */
export const REDUCERS = {
  lastNotNull: (ys) => { const f = notNull(ys); return f.length ? f[f.length - 1] : null; },
  last: (ys) => (ys.length ? ys[ys.length - 1] : null),
  firstNotNull: (ys) => { const f = notNull(ys); return f.length ? f[0] : null; },
  first: (ys) => (ys.length ? ys[0] : null),
  mean: (ys) => { const f = finite(ys); return f.length ? f.reduce((a, b) => a + b, 0) / f.length : null; },
  max: (ys) => { const f = finite(ys); return f.length ? Math.max(...f) : null; },
  min: (ys) => { const f = finite(ys); return f.length ? Math.min(...f) : null; },
  sum: (ys) => finite(ys).reduce((a, b) => a + b, 0),
  count: (ys) => ys.length,
  range: (ys) => { const f = finite(ys); return f.length ? Math.max(...f) - Math.min(...f) : null; },
  delta: (ys) => { const f = finite(ys); let d = 0; for (let i = 1; i < f.length; i++) d += f[i] >= f[i - 1] ? f[i] - f[i - 1] : f[i]; return d; },
  diff: (ys) => { const f = finite(ys); return f.length ? f[f.length - 1] - f[0] : null; },
  median: (ys) => median(finite(ys)),
  stdDev: (ys) => { const f = finite(ys); if (!f.length) return null; const m = f.reduce((a, b) => a + b, 0) / f.length; return Math.sqrt(f.reduce((a, b) => a + (b - m) ** 2, 0) / f.length); },
  variance: (ys) => { const f = finite(ys); if (!f.length) return null; const m = f.reduce((a, b) => a + b, 0) / f.length; return f.reduce((a, b) => a + (b - m) ** 2, 0) / f.length; },
  changeCount: (ys) => { let c = 0; for (let i = 1; i < ys.length; i++) if (ys[i] !== ys[i - 1]) c++; return c; },
  distinctCount: (ys) => new Set(finite(ys)).size,
};
REDUCERS.current = REDUCERS.lastNotNull;
REDUCERS.avg = REDUCERS.mean;
REDUCERS.total = REDUCERS.sum;

/** The median of finite numbers, null for none. */
export function median(values) {
  if (!values.length) return null;
  const s = values.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Applies a reducer by id (unknown ids fall back to lastNotNull, as Grafana does). */
export function reduce(ys, calc) {
  return (REDUCERS[calc] || REDUCERS.lastNotNull)(ys);
}

export const REDUCER_NAMES = {
  lastNotNull: 'Last *', last: 'Last', firstNotNull: 'First *', first: 'First', mean: 'Mean', max: 'Max', min: 'Min',
  sum: 'Total', count: 'Count', range: 'Range', delta: 'Delta', diff: 'Difference', median: 'Median', stdDev: 'StdDev',
  variance: 'Variance', changeCount: 'Change count', distinctCount: 'Distinct count',
};
