// TensorBoard's offset histogram view on a canvas: every step's buckets re-binned onto 30 common
// bins over the union range, drawn as ridges from the oldest (back, top) to the newest (front).
import { num } from './api.js';
import { h } from './dom.js';
import { fmtNum, fmtStep } from './format.js';

const BINS = 30;
const MAX_RIDGES = 40;

function rebin(buckets, lo, hi) {
  const out = new Array(BINS).fill(0);
  const width = (hi - lo) / BINS;
  for (const [l, u, c] of buckets) {
    let a = num(l);
    let b = num(u);
    const count = num(c);
    if (!count) continue;
    if (!Number.isFinite(a)) a = b;
    if (!Number.isFinite(b)) b = a;
    if (b <= a) {
      out[Math.min(BINS - 1, Math.max(0, Math.floor((a - lo) / width)))] += count;
      continue;
    }
    for (let i = 0; i < BINS; i++) {
      const x0 = lo + i * width;
      const overlap = Math.min(b, x0 + width) - Math.max(a, x0);
      if (overlap > 0) out[i] += (count * overlap) / (b - a);
    }
  }
  return out;
}

/** Draws the histogram points into the card and sets the test hook attributes. */
export function drawRidgeline(card, points) {
  if (!points.length) {
    card.dataset.state = 'empty';
    card.dataset.series = '0';
    card.dataset.points = '0';
    card.append(h('p.muted', 'No data.'));
    return;
  }
  const stride = Math.ceil(points.length / MAX_RIDGES);
  const chosen = points.filter((p, i) => i % stride === 0 || i === points.length - 1);
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of chosen) {
    for (const [l, u] of p.buckets) {
      const a = num(l);
      const b = num(u);
      if (Number.isFinite(a)) lo = Math.min(lo, a);
      if (Number.isFinite(b)) hi = Math.max(hi, b);
    }
  }
  if (!(hi > lo)) hi = lo + 1;
  const ridges = chosen.map((p) => ({ step: p.step, bins: rebin(p.buckets, lo, hi) }));
  const peak = Math.max(...ridges.flatMap((r) => r.bins)) || 1;
  const cssWidth = Math.max(300, card.clientWidth - 20);
  const cssHeight = 260;
  const dpr = window.devicePixelRatio || 1;
  const canvas = h('canvas', { width: cssWidth * dpr, height: cssHeight * dpr, style: { width: `${cssWidth}px`, height: `${cssHeight}px` } });
  const c = canvas.getContext('2d');
  c.scale(dpr, dpr);
  const left = 50;
  const right = cssWidth - 10;
  const top = 10;
  const bottom = cssHeight - 24;
  const ridgeHeight = 60;
  const offset = (bottom - top - ridgeHeight) / Math.max(1, ridges.length - 1);
  ridges.forEach((r, i) => {
    const base = top + ridgeHeight + i * offset;
    const t = ridges.length > 1 ? i / (ridges.length - 1) : 1;
    c.beginPath();
    c.moveTo(left, base);
    r.bins.forEach((v, j) => c.lineTo(left + ((j + 0.5) / BINS) * (right - left), base - (v / peak) * ridgeHeight));
    c.lineTo(right, base);
    c.closePath();
    c.fillStyle = `rgba(${Math.round(78 + 150 * (1 - t))},${Math.round(161 - 40 * (1 - t))},255,0.55)`;
    c.strokeStyle = '#0d1117';
    c.fill();
    c.stroke();
    if (i === 0 || i === ridges.length - 1) {
      c.fillStyle = '#8b949e';
      c.font = '11px system-ui';
      c.fillText(fmtStep(r.step), 4, base - 2);
    }
  });
  c.fillStyle = '#8b949e';
  c.font = '11px system-ui';
  c.fillText(fmtNum(lo), left, cssHeight - 6);
  c.fillText(fmtNum(hi), right - 40, cssHeight - 6);
  card.append(canvas);
  card.dataset.state = 'ready';
  card.dataset.series = String(ridges.length);
  card.dataset.points = String(ridges.length * BINS);
}
