// A tiny line on a canvas for table cells; NaN/Inf values show as a red end dot.

/** Draws `values` (numbers or null) into a new canvas of the given CSS size. */
export function sparkline(values, { width = 110, height = 26, colour = '#4ea1ff' } = {}) {
  const canvas = document.createElement('canvas');
  const dpr = window.devicePixelRatio || 1;
  canvas.width = width * dpr;
  canvas.height = height * dpr;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.className = 'sparkline';
  const finite = values.filter((v) => v !== null && Number.isFinite(v));
  canvas.dataset.points = String(finite.length);
  if (finite.length < 2) return canvas;
  const ctx = canvas.getContext('2d');
  ctx.scale(dpr, dpr);
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const span = max - min || 1;
  const pad = 2;
  const xOf = (i) => pad + (i / (values.length - 1)) * (width - 2 * pad);
  const yOf = (v) => height - pad - ((v - min) / span) * (height - 2 * pad);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.3;
  ctx.beginPath();
  let pen = false;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      pen = false;
      return;
    }
    if (pen) ctx.lineTo(xOf(i), yOf(v));
    else ctx.moveTo(xOf(i), yOf(v));
    pen = true;
  });
  ctx.stroke();
  const last = values[values.length - 1];
  if (last !== null && !Number.isFinite(last)) {
    ctx.fillStyle = '#ff4d4d';
    ctx.beginPath();
    ctx.arc(width - pad - 1, pad + 2, 2.5, 0, Math.PI * 2);
    ctx.fill();
  }
  return canvas;
}
