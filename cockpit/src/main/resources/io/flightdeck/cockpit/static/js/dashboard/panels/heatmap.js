// The heatmap of a classic Prometheus histogram: one row per `le` bucket, cumulative counts turned
// into each bucket's own count (as Grafana's "heatmap" format does), one column per time, the
// colour's strength the count. Series without `le` are drawn as rows as they are.
import { h, fill } from '../../dom.js';

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
  const format = (ctx.queries || []).some((q) => q.format === 'heatmap');
  const hasLe = data.frames.some((f) => f.labels.le !== undefined);
  const { x, rows } = histogramRows(data.frames, format || hasLe);
  const cells = rows.reduce((n, r) => n + r.values.filter((v) => v !== null).length, 0);
  if (!rows.length || !cells) {
    card.empty();
    return;
  }
  card.clear();
  const canvas = h('canvas.dash-heatmap');
  const labels = h('div.dash-heatmap-labels', rows.slice().reverse().map((r) => h('span', r.label)));
  const wrap = h('div.dash-heatmap-wrap', labels, canvas);
  fill(card.body, wrap);
  const max = Math.max(...rows.flatMap((r) => r.values.filter((v) => v !== null)), 1e-12);
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
}
