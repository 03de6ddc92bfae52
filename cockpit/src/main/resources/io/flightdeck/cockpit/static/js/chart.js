// One chart card around uPlot, and the test hook other tools read: the card is an element with
// data-chart="<title>", and once drawn data-series="<series drawn>" and data-points="<points drawn>"
// (raw points of the series the user sees; a smoothed line is not counted twice, a min/median/max
// band counts as one series). data-state is loading | ready | empty | error.
import uPlot from 'uplot';
import { h, fill } from './dom.js';
import { fmtUnit, fmtNum, fmtDuration, fmtStep } from './format.js';

export const PALETTE = ['#4ea1ff', '#f2a93b', '#3fb950', '#e5534b', '#b083f0', '#39c5cf',
  '#f778ba', '#d4c84a', '#8ddb8c', '#ff8e59', '#7aa2f7', '#c9d1d9'];

const EVENT_COLOURS = {
  restart: '#f2a93b', epoch: '#6e7681', stall: '#f0b429', alert: '#e5534b', xid: '#ff4d4d', gpu_lost: '#ff4d4d',
  nan: '#ff4d4d', demo_incident: '#b083f0',
};

/** Colour of an event kind on charts and in the event lane. */
export function eventColour(kind) {
  return EVENT_COLOURS[kind] || '#39c5cf';
}

/** `#rrggbb` with an alpha. */
export function alpha(colour, a) {
  const n = parseInt(colour.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${a})`;
}

/** Formats an x value in the chart's x mode. */
export function fmtX(v, xMode) {
  if (v === null || v === undefined) return '–';
  if (xMode === 'time') return new Date(v * 1000).toISOString().slice(5, 19).replace('T', ' ');
  if (xMode === 'relative') return fmtDuration(v);
  return `step ${fmtStep(v)}`;
}

/** Tick spacings for durations: whole seconds, minutes, hours and days. */
const DURATION_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800,
  21600, 43200, 86400, 172800, 604800];

function xTicks(xMode) {
  if (xMode === 'relative') return (u, vals) => vals.map((v) => fmtDuration(v));
  if (xMode === 'step') return (u, vals) => vals.map((v) => fmtNum(v));
  // 24-hour UTC; the date only when the axis spans days, seconds only when it spans minutes.
  return (u, vals) => {
    const span = u.scales.x.max - u.scales.x.min;
    return vals.map((v) => {
      const iso = new Date(v * 1000).toISOString();
      if (span > 2 * 86400) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
      return span < 600 ? iso.slice(11, 19) : iso.slice(11, 16);
    });
  };
}

/**
 * Sorted union of the x arrays, and each array's values placed on it. Where a series has no point
 * at an x it is `undefined`, which uPlot draws through; its own missing or non-finite values, and a
 * hole much wider than its usual spacing (no data for a while), are `null`, which uPlot draws as a
 * gap.
 */
function align(items) {
  const xs = new Set();
  const holes = items.map((item) => {
    for (const x of item.x) xs.add(x);
    const found = [];
    const dx = [];
    for (let i = 1; i < item.x.length; i++) dx.push(item.x[i] - item.x[i - 1]);
    if (dx.length >= 4) {
      const typical = dx.slice().sort((a, b) => a - b)[Math.floor(dx.length / 2)];
      dx.forEach((d, i) => {
        if (typical > 0 && d > 5 * typical) found.push((item.x[i] + item.x[i + 1]) / 2);
      });
    }
    found.forEach((x) => xs.add(x));
    return found;
  });
  const x = Float64Array.from(xs).sort();
  const index = new Map();
  x.forEach((v, i) => index.set(v, i));
  const columns = items.map((item, k) => {
    const col = new Array(x.length).fill(undefined);
    item.x.forEach((xv, i) => {
      const y = item.y[i];
      col[index.get(xv)] = y === null || y === undefined || !Number.isFinite(y) ? null : y;
    });
    for (const hole of holes[k]) col[index.get(hole)] = null;
    return col;
  });
  return { x: Array.from(x), columns };
}

/**
 * A y axis as wide as its longest label, but the left one never narrower than the usual widest
 * label, so that charts stacked in a column share their x positions.
 */
function axisSize(u, values, axisIndex) {
  const widest = values && values.length ? Math.max(...values.map((v) => String(v).length)) * 7 + 26 : 40;
  return axisIndex === 1 ? Math.max(widest, 90) : widest;
}

function robustRange(columns, unit) {
  const values = [];
  for (const col of columns) for (const v of col) if (v != null) values.push(v);
  if (!values.length) return null;
  values.sort((a, b) => a - b);
  const lo = values[Math.floor(values.length * 0.02)];
  const hi = values[Math.min(values.length - 1, Math.ceil(values.length * 0.98))];
  const pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.1 || 1;
  let min = lo - pad;
  if (values[0] >= 0 && min < 0) min = 0;
  if (unit === '%' && hi <= 100 && values[0] >= 0) return [0, Math.max(100, hi)];
  return [min, hi + pad];
}

export class Chart {
  /**
   * @param opts.title the chart's name (also its data-chart)
   * @param opts.unit unit of the left axis (see fmtUnit), opts.unit2 of the right one
   * @param opts.syncKey charts sharing it share cursor and drag-zoom
   * @param opts.onZoom (min, max) in x units after a drag; (null, null) on double-click
   * @param opts.actions elements (buttons) at the right of the chart's header
   */
  constructor(opts) {
    this.opts = { height: 190, ...opts };
    this.plot = null;
    this.legend = h('div.legend');
    this.body = h('div.plot');
    this.subtitle = h('span.chart-sub', opts.subtitle || '');
    this.el = h('section.chart-card', { dataset: { chart: opts.title, state: 'loading' }, role: 'figure', 'aria-label': opts.title },
      h('header', h('h3', opts.title), this.subtitle, opts.actions || null),
      this.body, this.legend);
    if (opts.description) this.el.title = opts.description;
    this.body.append(h('div.chart-msg.muted', 'Loading…'));
    this.el.addEventListener('dblclick', () => this.opts.onZoom && this.opts.onZoom(null, null));
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(this.body);
  }

  setSubtitle(text) {
    this.subtitle.textContent = text || '';
  }

  /** Keeps the drawn chart while new data loads (no flicker on refresh or zoom). */
  loading() {
    this.el.classList.add('is-loading');
  }

  /** The server's message in place of the chart. */
  error(message) {
    this.destroyPlot();
    this.el.classList.remove('is-loading');
    this.el.dataset.state = 'error';
    this.el.dataset.error = message;
    delete this.el.dataset.series;
    delete this.el.dataset.points;
    fill(this.body, h('div.chart-msg.error-box', { role: 'alert' }, message));
    fill(this.legend);
  }

  /** Drawn, with nothing to draw: says so, with what was looked for. */
  empty(message) {
    this.destroyPlot();
    this.el.classList.remove('is-loading');
    this.el.dataset.state = 'empty';
    this.el.dataset.series = '0';
    this.el.dataset.points = '0';
    delete this.el.dataset.error;
    fill(this.body, h('div.chart-msg.muted', message || 'No data in this range.'));
    fill(this.legend);
  }

  /**
   * Draws lines and bands on one x axis.
   * lines: [{label, colour, x, y, width, alpha, scale ('y'|'y2'), counted, dash}]
   * bands: [{label, colour, x, lo, hi}] (each counts as one series)
   * events: [{x, x2, kind, title}] in x units; nonFinite: [{x, label}] for NaN/Inf markers
   */
  draw({ xMode, lines = [], bands = [], events = [], nonFinite = [], xRange = null }) {
    const counted = lines.filter((l) => l.counted !== false);
    const countedBands = bands.filter((b) => b.counted !== false);
    const points = counted.reduce((n, l) => n + l.y.filter((v) => v !== null).length, 0) +
      countedBands.reduce((n, b) => n + b.x.length, 0);
    const seriesCount = counted.length + countedBands.length;
    if (seriesCount === 0 || points === 0) {
      this.empty(nonFinite.length ? 'Every value is NaN or infinite.' : undefined);
      if (nonFinite.length) this.el.dataset.points = String(nonFinite.length);
      return;
    }
    const items = [];
    const uSeries = [{}];
    const uBands = [];
    for (const b of bands) {
      const hiIndex = items.length + 1;
      items.push({ x: b.x, y: b.hi }, { x: b.x, y: b.lo });
      uSeries.push(
        { label: `${b.label} max`, stroke: alpha(b.colour, 0.5), width: 1, scale: b.scale || 'y', points: { show: false } },
        { label: `${b.label} min`, stroke: alpha(b.colour, 0.5), width: 1, scale: b.scale || 'y', points: { show: false } });
      uBands.push({ series: [hiIndex, hiIndex + 1], fill: alpha(b.colour, 0.18) });
    }
    for (const l of lines) {
      items.push(l);
      uSeries.push({
        label: l.label,
        stroke: l.alpha !== undefined ? alpha(l.colour, l.alpha) : l.colour,
        width: l.width || 1.5,
        scale: l.scale || 'y',
        dash: l.dash,
        spanGaps: false,
        points: { show: (u, si) => l.y.length < 3, size: 5 },
      });
    }
    const { x, columns } = align(items);
    const unit = this.opts.unit;
    const hasY2 = lines.some((l) => l.scale === 'y2');
    const leftColumns = columns.filter((c, i) => (uSeries[i + 1].scale || 'y') === 'y');
    const yRange = this.opts.robust ? robustRange(leftColumns, unit) : null;
    const axisStyle = { stroke: '#9aa3b2', grid: { stroke: '#262b35', width: 1 }, ticks: { stroke: '#30363f', width: 1 }, font: '11px system-ui, sans-serif' };
    const axes = [
      { ...axisStyle, values: xTicks(xMode), space: 70, ...(xMode === 'relative' ? { incrs: DURATION_STEPS } : {}) },
      { ...axisStyle, size: axisSize, values: (u, vals) => vals.map((v) => fmtUnit(v, unit)), ...(unit === 's' ? { incrs: DURATION_STEPS } : {}) },
    ];
    const scales = {
      x: { time: xMode === 'time', ...(xRange ? { range: () => xRange } : {}) },
      y: yRange ? { range: () => yRange } : (unit === '%' ? { range: (u, min, max) => [Math.min(0, min), Math.max(100, max)] } : { auto: true }),
    };
    if (hasY2) {
      axes.push({ ...axisStyle, scale: 'y2', side: 1, size: axisSize, grid: { show: false },
        values: (u, vals) => vals.map((v) => fmtUnit(v, this.opts.unit2)) });
      scales.y2 = { auto: true };
    }
    const self = this;
    const options = {
      width: Math.max(200, this.body.clientWidth || 600),
      height: this.opts.height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales,
      axes,
      series: uSeries,
      bands: uBands,
      legend: { show: false },
      cursor: {
        sync: this.opts.syncKey ? { key: this.opts.syncKey, setSeries: false } : undefined,
        drag: { x: true, y: false, setScale: false },
        points: { size: 6 },
      },
      hooks: {
        setSelect: [(u) => {
          if (u.select.width > 4 && self.opts.onZoom) {
            const min = u.posToVal(u.select.left, 'x');
            const max = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
            self.opts.onZoom(min, max);
          }
        }],
        setCursor: [(u) => self.readout(u)],
        draw: [(u) => drawMarks(u, events, nonFinite)],
      },
    };
    this.destroyPlot();
    fill(this.body);
    this.plot = new uPlot(options, [x, ...columns], this.body);
    this.plot.over.addEventListener('mouseleave', () => this.readout(null));
    this.xMode = xMode;
    this.lines = lines;
    this.bands = bands;
    this.columnsOffset = bands.length * 2 + 1;
    this.readout(null);
    this.el.classList.remove('is-loading');
    this.el.dataset.state = 'ready';
    delete this.el.dataset.error;
    this.el.dataset.series = String(seriesCount);
    this.el.dataset.points = String(points);
  }

  /** The legend: each visible series with its value under the cursor (or its last value). */
  readout(u) {
    if (!this.plot) return;
    const p = this.plot;
    const idx = u && u.cursor && u.cursor.idx !== null && u.cursor.idx !== undefined ? u.cursor.idx : null;
    const unitOf = (l) => (l.scale === 'y2' ? this.opts.unit2 : this.opts.unit);
    const rows = [];
    this.bands.forEach((b, i) => {
      if (b.counted === false) return;
      const hi = p.data[1 + 2 * i];
      const lo = p.data[2 + 2 * i];
      const at = idx !== null ? idx : lastIndex(hi);
      rows.push(h('span.legend-item', h('i.swatch', { style: { background: alpha(b.colour, 0.5) } }),
        `${b.label} ${fmtUnit(lo[at], this.opts.unit)} – ${fmtUnit(hi[at], this.opts.unit)}`));
    });
    const shown = this.lines.filter((l) => l.legend !== false);
    shown.slice(0, 12).forEach((l) => {
      const col = p.data[this.columnsOffset + this.lines.indexOf(l)];
      const at = idx !== null ? idx : lastIndex(col);
      const value = at === null ? null : col[at];
      rows.push(h('span.legend-item', h('i.swatch', { style: { background: l.colour } }),
        `${l.label} `, h('b', fmtUnit(value, unitOf(l)))));
    });
    if (shown.length > 12) rows.push(h('span.legend-item.muted', `+${shown.length - 12} more`));
    const head = idx !== null ? h('span.legend-x', fmtX(p.data[0][idx], this.xMode)) : h('span.legend-x.muted', 'latest');
    fill(this.legend, head, rows);
  }

  resize() {
    if (this.plot && this.body.clientWidth > 0) {
      this.plot.setSize({ width: this.body.clientWidth, height: this.opts.height });
    }
  }

  destroyPlot() {
    if (this.plot) {
      this.plot.destroy();
      this.plot = null;
    }
  }

  dispose() {
    this.destroyPlot();
    this.observer.disconnect();
  }
}

function lastIndex(col) {
  for (let i = col.length - 1; i >= 0; i--) if (col[i] != null) return i;
  return null;
}

/** Events as vertical lines (intervals shaded) and NaN/Inf values as red ticks along the top. */
function drawMarks(u, events, nonFinite) {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const dpr = devicePixelRatio || 1;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  for (const e of events) {
    if (e.x === null || e.x === undefined) continue;
    const colour = eventColour(e.kind);
    const x1 = u.valToPos(e.x, 'x', true);
    if (e.x2 !== null && e.x2 !== undefined && e.x2 > e.x) {
      const x2 = u.valToPos(e.x2, 'x', true);
      ctx.fillStyle = alpha(colour, 0.12);
      ctx.fillRect(x1, top, Math.max(1, x2 - x1), height);
    } else if (e.kind === 'stall') {
      // On the step axis a stall has no width: it is drawn wide enough to be seen anyway.
      ctx.fillStyle = alpha(colour, 0.35);
      ctx.fillRect(x1 - 3 * dpr, top, 6 * dpr, height);
    }
    ctx.strokeStyle = alpha(colour, e.kind === 'epoch' ? 0.55 : 0.9);
    ctx.lineWidth = dpr;
    ctx.setLineDash(e.kind === 'epoch' ? [4 * dpr, 4 * dpr] : []);
    ctx.beginPath();
    ctx.moveTo(Math.round(x1) + 0.5, top);
    ctx.lineTo(Math.round(x1) + 0.5, top + height);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.fillStyle = '#ff4d4d';
  for (const m of nonFinite) {
    const x = u.valToPos(m.x, 'x', true);
    ctx.beginPath();
    ctx.moveTo(x - 4 * dpr, top);
    ctx.lineTo(x + 4 * dpr, top);
    ctx.lineTo(x, top + 7 * dpr);
    ctx.fill();
  }
  ctx.restore();
}
