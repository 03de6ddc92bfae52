// The timeseries panel on uPlot: lines, bars or points per Grafana's custom.drawStyle, stacking
// (normal or percent), a right axis for series whose override says axisPlacement "right",
// negative-Y, threshold lines, anomaly marks from the anomalies transform, and a legend (list or
// table) with the calcs the panel asks for. Times on the axis and in the legend's cursor readout
// are in the dashboard's time zone (ctx.zone).
import uPlot from 'uplot';
import { h, fill } from '../../dom.js';
import { PALETTE, alpha } from '../../chart.js';
import { fieldFor, formatValue, cssColour, reduce, REDUCER_NAMES, displayName } from '../fields.js';
import { drawAnnotations } from '../annotations.js';
import { formatTime } from '../timezone.js';

const AXIS = { stroke: '#9aa3b2', grid: { stroke: '#262b35', width: 1 }, ticks: { stroke: '#30363f', width: 1 }, font: '11px system-ui, sans-serif' };

function xTicks(xMode, zone) {
  if (xMode === 'step') return (u, vals) => vals.map((v) => formatValue(v, 'short'));
  return (u, vals) => {
    const span = u.scales.x.max - u.scales.x.min;
    const style = span > 2 * 86400 ? 'dayMinute' : span < 600 ? 'second' : 'clock';
    return vals.map((v) => formatTime(v * 1000, zone, style));
  };
}

/** The scale's range from the fields drawn on it: their min/max where set, else the data's. */
function fieldRange(fieldsOnScale, min, max) {
  const mins = fieldsOnScale.map((f) => f.min).filter((v) => v !== null && v !== undefined && Number.isFinite(Number(v))).map(Number);
  const maxs = fieldsOnScale.map((f) => f.max).filter((v) => v !== null && v !== undefined && Number.isFinite(Number(v))).map(Number);
  const lo = mins.length ? Math.min(...mins) : (min === null ? 0 : min);
  const hi = maxs.length ? Math.max(...maxs) : (max === null ? 1 : max);
  return hi > lo ? [lo, hi] : [lo - 1, hi + 1];
}

/** The sorted union of the frames' x, and each frame's y placed on it (null where it has none). */
function align(frames) {
  const xs = new Set();
  frames.forEach((f) => f.x.forEach((x) => xs.add(x)));
  const x = Array.from(xs).sort((a, b) => a - b);
  const index = new Map(x.map((v, i) => [v, i]));
  const columns = frames.map((f) => {
    const col = new Array(x.length).fill(null);
    f.x.forEach((xv, i) => {
      const y = f.y[i];
      col[index.get(xv)] = y === null || !Number.isFinite(y) ? null : y;
    });
    return col;
  });
  return { x, columns, index };
}

function stack(columns, fields, mode) {
  if (mode !== 'normal' && mode !== 'percent') return columns;
  const groups = new Map();
  const out = columns.map((c) => c.slice());
  columns.forEach((col, i) => {
    const f = fields[i];
    if (!f.custom.stacking || f.custom.stacking.mode === 'none') return;
    const key = `${f.custom.axisPlacement === 'right' ? 'y2' : 'y'}:${f.custom.stacking.group || 'A'}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(i);
  });
  for (const members of groups.values()) {
    const n = columns[members[0]].length;
    for (let k = 0; k < n; k++) {
      let total = 0;
      if (mode === 'percent') for (const i of members) total += Math.abs(columns[i][k] ?? 0);
      let acc = 0;
      for (const i of members) {
        const v = columns[i][k];
        if (v === null) continue;
        acc += mode === 'percent' ? (total ? v / total : 0) : v;
        out[i][k] = acc;
      }
    }
  }
  return out;
}

/**
 * Draws the frames into the card. ctx: {panel, xMode, syncKey, onZoom(minSec, maxSec)}.
 */
export function renderTimeseries(card, data, ctx) {
  const { panel } = ctx;
  const frames = data.frames.filter((f) => f.y.some((v) => v !== null));
  const fields = frames.map((f) => fieldFor(panel.fieldConfig, f));
  const names = frames.map((f, i) => displayName(fields[i], f));
  const visible = frames.map((f, i) => !(fields[i].custom.hideFrom && fields[i].custom.hideFrom.viz));
  const shown = frames.filter((f, i) => visible[i]);
  const points = shown.reduce((n, f) => n + f.y.filter((v) => v !== null && Number.isFinite(v)).length, 0);
  if (!shown.length || points === 0) {
    card.empty();
    return;
  }
  const { x, columns: raw, index } = align(frames);
  const negated = raw.map((col, i) => (fields[i].custom.transform === 'negative-Y' ? col.map((v) => (v === null ? null : -v)) : col));
  const defaults = (panel.fieldConfig && panel.fieldConfig.defaults) || {};
  const stackMode = defaults.custom && defaults.custom.stacking ? defaults.custom.stacking.mode : 'none';
  const columns = stack(negated, fields, stackMode);
  const leftIndex = fields.findIndex((f) => f.custom.axisPlacement !== 'right');
  const unitLeft = stackMode === 'percent' ? 'percentunit' : (leftIndex >= 0 ? fields[leftIndex].unit : defaults.unit);
  const decimalsLeft = leftIndex >= 0 ? fields[leftIndex].decimals : defaults.decimals;
  const rightIndex = fields.findIndex((f) => f.custom.axisPlacement === 'right');
  const unitRight = rightIndex >= 0 ? fields[rightIndex].unit : null;
  const series = [{}];
  const legendCalcs = (panel.options.legend && panel.options.legend.calcs) || [];
  frames.forEach((f, i) => {
    const field = fields[i];
    const colour = field.color && field.color.mode === 'fixed' && field.color.fixedColor ? cssColour(field.color.fixedColor) : PALETTE[i % PALETTE.length];
    const style = field.custom.drawStyle || 'line';
    const width = field.custom.lineWidth ?? 1;
    const fill = field.custom.fillOpacity ? alpha(colour.startsWith('#') ? colour : '#4ea1ff', field.custom.fillOpacity / 100) : undefined;
    series.push({
      label: names[i],
      show: visible[i],
      stroke: colour,
      width: style === 'points' ? 0 : Math.max(0.5, width),
      fill,
      scale: field.custom.axisPlacement === 'right' ? 'y2' : 'y',
      spanGaps: field.custom.spanNulls === true,
      paths: style === 'bars' ? uPlot.paths.bars({ size: [0.6, 40] }) : style === 'points' ? () => null : undefined,
      points: { show: style === 'points' || f.y.length < 3, size: field.custom.pointSize || 5, fill: colour },
    });
  });
  const leftFields = fields.filter((f) => f.custom.axisPlacement !== 'right');
  const rightFields = fields.filter((f) => f.custom.axisPlacement === 'right');
  const axes = [
    { ...AXIS, values: xTicks(ctx.xMode, ctx.zone), space: 70 },
    { ...AXIS, size: 70, values: (u, vals) => vals.map((v) => formatValue(v, unitLeft, decimalsLeft, ctx.zone)) },
  ];
  const scales = { x: { time: ctx.xMode === 'time', ...(ctx.xRange ? { range: () => ctx.xRange } : {}) }, y: { range: (u, min, max) => fieldRange(leftFields, min, max) } };
  if (rightIndex >= 0) {
    axes.push({ ...AXIS, scale: 'y2', side: 1, size: 70, grid: { show: false }, values: (u, vals) => vals.map((v) => formatValue(v, unitRight, fields[rightIndex].decimals, ctx.zone)) });
    scales.y2 = { range: (u, min, max) => fieldRange(rightFields, min, max) };
  }
  const thresholdStyle = (defaults.custom && defaults.custom.thresholdsStyle && defaults.custom.thresholdsStyle.mode) || 'off';
  const steps = (defaults.thresholds && defaults.thresholds.steps) || [];
  const marks = frames.map((f, i) => (f.anomalies || []).map((k) => ({ xi: f.x[k], y: columns[i][index.get(f.x[k])] })));
  const anomalyCount = frames.reduce((n, f) => n + (f.anomalies ? f.anomalies.length : 0), 0);
  const plotEl = h('div.dash-plot');
  const legend = h('div.dash-legend');
  fill(card.body, plotEl, legend);
  card.clear();
  const size = () => ({ width: Math.max(120, plotEl.clientWidth || 300), height: Math.max(60, plotEl.clientHeight || 150) });
  const options = {
    ...size(),
    scales,
    axes,
    series,
    legend: { show: false },
    // Ticks on whole hours and days of the dashboard's zone, not the browser's.
    ...(ctx.zone && ctx.xMode === 'time' ? { tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), ctx.zone) } : {}),
    cursor: {
      sync: ctx.syncKey ? { key: ctx.syncKey, setSeries: false } : undefined,
      drag: { x: true, y: false, setScale: false },
      points: { size: 6 },
    },
    hooks: {
      setSelect: [(u) => {
        if (u.select.width > 4 && ctx.onZoom) {
          const min = u.posToVal(u.select.left, 'x');
          const max = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
          ctx.onZoom(min, max);
        }
      }],
      setCursor: [(u) => readout(u)],
      draw: [(u) => {
        drawAnnotations(u, ctx.annotations);
        const c = u.ctx;
        const { left, top, width, height } = u.bbox;
        c.save();
        if (thresholdStyle !== 'off') {
          steps.filter((s) => s.value !== null && s.value !== undefined).forEach((s) => {
            const y = u.valToPos(s.value, 'y', true);
            if (y < top || y > top + height) return;
            c.strokeStyle = cssColour(s.color);
            c.setLineDash(thresholdStyle.includes('dash') ? [6, 4] : []);
            c.beginPath();
            c.moveTo(left, y);
            c.lineTo(left + width, y);
            c.stroke();
          });
        }
        c.setLineDash([]);
        c.fillStyle = '#ff4d4d';
        marks.forEach((list, i) => list.forEach((m) => {
          if (m.y === null || m.y === undefined) return;
          const px = u.valToPos(m.xi, 'x', true);
          const py = u.valToPos(m.y, series[i + 1].scale, true);
          c.beginPath();
          c.arc(px, py, 4 * (devicePixelRatio || 1), 0, 2 * Math.PI);
          c.fill();
        }));
        c.restore();
      }],
    },
  };
  const plot = new uPlot(options, [x, ...columns], plotEl);
  const observer = new ResizeObserver(() => plot.setSize(size()));
  observer.observe(plotEl);
  card.onClear(() => {
    observer.disconnect();
    plot.destroy();
  });
  const legendOpts = panel.options.legend || {};
  const showLegend = legendOpts.showLegend !== false && legendOpts.displayMode !== 'hidden';
  const unitOf = (i) => fields[i].unit ?? (fields[i].custom.axisPlacement === 'right' ? unitRight : unitLeft);
  const cursorTime = (idx) => (ctx.xMode === 'time' ? formatTime(x[idx] * 1000, ctx.zone) : `step ${formatValue(x[idx], 'short')}`);
  function readout(u) {
    if (!showLegend) return;
    const idx = u && u.cursor && u.cursor.idx !== null && u.cursor.idx !== undefined ? u.cursor.idx : null;
    const rows = frames.map((f, i) => ({ f, i })).filter(({ i }) => visible[i]);
    const at = idx !== null ? h('span.dash-cursor-time', cursorTime(idx)) : null;
    if (legendOpts.displayMode === 'table') {
      fill(legend, at, h('table.dash-legend-table',
        h('thead', h('tr', h('th', 'Name'), idx !== null ? h('th', 'At cursor') : null, legendCalcs.map((c) => h('th', REDUCER_NAMES[c] || c)))),
        h('tbody', rows.slice(0, 50).map(({ f, i }) => h('tr',
          h('td', h('i.swatch', { style: { background: series[i + 1].stroke } }), names[i]),
          idx !== null ? h('td.num', formatValue(raw[i][idx], unitOf(i), fields[i].decimals, ctx.zone)) : null,
          legendCalcs.map((c) => h('td.num', formatValue(reduce(f.y, c), unitOf(i), fields[i].decimals, ctx.zone))))))));
      return;
    }
    fill(legend, at, rows.slice(0, 30).map(({ f, i }) => h('span.legend-item',
      h('i.swatch', { style: { background: series[i + 1].stroke } }), `${names[i]} `,
      idx !== null ? h('b', formatValue(raw[i][idx], unitOf(i), fields[i].decimals, ctx.zone)) : null,
      legendCalcs.map((c) => h('span.muted', ` ${REDUCER_NAMES[c] || c} `, h('b', formatValue(reduce(f.y, c), unitOf(i), fields[i].decimals, ctx.zone)))))),
    rows.length > 30 ? h('span.legend-item.muted', `+${rows.length - 30} more`) : null);
  }
  readout(null);
  card.drawn(shown.length, points);
  card.el.dataset.x = ctx.xMode;
  const regions = (ctx.annotations || []).length;
  if (regions) card.el.dataset.annotations = String(regions);
  else delete card.el.dataset.annotations;
  if (anomalyCount) card.el.dataset.anomalies = String(anomalyCount);
  else delete card.el.dataset.anomalies;
}
