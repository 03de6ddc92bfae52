// TensorBoard's smoothing: an exponential moving average started at zero and divided by
// (1 - w^n), n counting only the finite points so far, so the start is not dragged to zero.
// NaN and infinities pass through without poisoning the average; a constant series is left alone.

/** Smooths `values` (numbers or null) with weight `w` in [0, 1). */
export function debiasedEma(values, w) {
  if (!(w > 0)) return values.slice();
  const finite = values.filter((v) => v !== null && Number.isFinite(v));
  if (finite.length && finite.every((v) => v === finite[0])) return values.slice();
  let last = 0;
  let n = 0;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return v;
    last = last * w + (1 - w) * v;
    n++;
    return last / (1 - Math.pow(w, n));
  });
}
