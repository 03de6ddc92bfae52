// The heatmap of a classic Prometheus histogram: one row per `le` bucket, cumulative counts turned
// into each bucket's own count (as Grafana's "heatmap" format does), one column per time, the
// colour's strength the count. Series without `le` are drawn as rows as they are. With Grafana's
// `calculate: true` the panel buckets plain series itself (heatmap-buckets.js).
import { h, fill } from '../../dom.js';
import { calculateBuckets } from '../heatmap-buckets.js';
import { formatTime } from '../timezone.js';

function leValue(le) {
  return le === '+Inf' ? Infinity : Number(le);
}

/** Rows (sorted by le) on a shared x: {x, rows: [{label, values}]}. */
export function histogramRows(frames, deaccumulate) {
  const xs = [...new Set(frames.flatMap((f) => f.x))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const byLe = new Map();
  for (const f of frames) {
    const key = f.labels.le !== undefined ? f.labels.le : f.name;
    if (!byLe.has(key)) byLe.set(key, new Array(xs.length).fill(null));
    const col = byLe.get(key);
    f.x.forEach((x, i) => {
      if (f.y[i] === null || !Number.isFinite(f.y[i])) return;
      col[index.get(x)] = (col[index.get(x)] ?? 0) + f.y[i];
    });
  }
  const keys = [...byLe.keys()];
  const numeric = keys.every((k) => !Number.isNaN(leValue(k)));
  if (numeric) keys.sort((a, b) => leValue(a) - leValue(b));
  const rows = keys.map((k) => ({ label: k, values: byLe.get(k).slice() }));
  if (deaccumulate && numeric) {
    for (let r = rows.length - 1; r > 0; r--) {
      rows[r].values = rows[r].values.map((v, i) => (v === null || rows[r - 1].values[i] === null ? v : Math.max(0, v - rows[r - 1].values[i])));
    }
  }
  return { x: xs, rows };
}

export function renderHeatmap(card, data, ctx) {
  const options = ctx.panel.options || {};
  let x;
  let rows;
  let notes = [];
  let width = null;
  if (options.calculate === true) {
    const unit = (ctx.panel.fieldConfig && ctx.panel.fieldConfig.defaults && ctx.panel.fieldConfig.defaults.unit) || (options.yAxis && options.yAxis.unit);
    ({ x, rows, notes, width } = calculateBuckets(data.frames, options.calculation || {}, unit));
  } else {
    const format = (ctx.queries || []).some((q) => q.format === 'heatmap');
    const hasLe = data.frames.some((f) => f.labels.le !== undefined);
    ({ x, rows } = histogramRows(data.frames, format || hasLe));
  }
  const cells = rows.reduce((n, r) => n + r.values.filter((v) => v !== null).length, 0);
  if (!rows.length || !cells) {
    card.empty();
    return;
  }
  card.clear();
  const canvas = h('canvas.dash-heatmap');
  const labels = h('div.dash-heatmap-labels', rows.slice().reverse().map((r) => h('span', r.label)));
  const wrap = h('div.dash-heatmap-wrap', labels, canvas);
  // The first and last columns' times under the cells (in the dashboard's zone), as an axis would.
  const when = (t) => (ctx.xMode === 'step' ? `step ${t}` : formatTime(t * 1000, ctx.zone, 'minute'));
  const times = h('div.dash-heatmap-times', h('span', when(x[0])), h('span', when(x[x.length - 1])));
  fill(card.body, wrap, times);
  const max = Math.max(...rows.flatMap((r) => r.values.filter((v) => v !== null)), 1e-12);
  // Where the pointer is: the column's time (in the dashboard's zone), the bucket and its count.
  canvas.addEventListener('mousemove', (e) => {
    const box = canvas.getBoundingClientRect();
    const xi = Math.min(x.length - 1, Math.floor(((e.clientX - box.left) / box.width) * x.length));
    const ri = Math.min(rows.length - 1, Math.floor(((box.bottom - e.clientY) / box.height) * rows.length));
    if (xi < 0 || ri < 0) return;
    const t = ctx.xMode === 'step' ? `step ${x[xi]}` : formatTime(x[xi] * 1000, ctx.zone) + (width ? ` + ${width} s` : '');
    canvas.title = `${t}\n${rows[ri].label}: ${rows[ri].values[xi] ?? 'no data'}`;
  });
  const draw = () => {
    const dpr = devicePixelRatio || 1;
    const w = Math.max(50, canvas.clientWidth);
    const hgt = Math.max(30, canvas.clientHeight);
    canvas.width = w * dpr;
    canvas.height = hgt * dpr;
    const c = canvas.getContext('2d');
    c.scale(dpr, dpr);
    const cw = w / Math.max(1, x.length);
    const ch = hgt / rows.length;
    rows.forEach((r, ri) => r.values.forEach((v, xi) => {
      if (v === null) return;
      const a = Math.sqrt(v / max);
      c.fillStyle = `rgba(242,169,59,${0.08 + 0.92 * a})`;
      c.fillRect(xi * cw, hgt - (ri + 1) * ch, Math.ceil(cw), Math.ceil(ch) - 1);
    }));
  };
  const observer = new ResizeObserver(draw);
  observer.observe(canvas);
  card.onClear(() => observer.disconnect());
  draw();
  card.drawn(rows.length, cells);
  // The test hook's counts: each row's total from the lowest bucket up, and their sum.
  const totals = rows.map((r) => r.values.reduce((a, v) => a + (v ?? 0), 0));
  card.el.dataset.rowTotals = totals.join(',');
  card.el.dataset.total = String(totals.reduce((a, b) => a + b, 0));
  notes.forEach((m) => card.note(m));
}
