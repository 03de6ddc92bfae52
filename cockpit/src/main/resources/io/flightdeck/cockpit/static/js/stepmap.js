// A run's step map (monotonic segments of [time, step]) turned into conversions between the
// three x axes. A step reached twice (a restart) maps to its earliest time for a range start and
// its latest for a range end, so a zoom never drops either pass.

export class StepMap {
  constructor(data) {
    this.segments = ((data && data.segments) || []).map((s) => s.points).filter((p) => p.length);
  }

  /** The step at time t (interpolated inside a segment), or null outside every segment. */
  stepAt(t) {
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const pts = this.segments[s];
      if (t < pts[0][0] || t > pts[pts.length - 1][0]) continue;
      for (let i = 1; i < pts.length; i++) {
        if (t <= pts[i][0]) {
          const [t0, s0] = pts[i - 1];
          const [t1, s1] = pts[i];
          return t1 === t0 ? s1 : s0 + ((s1 - s0) * (t - t0)) / (t1 - t0);
        }
      }
      return pts[pts.length - 1][1];
    }
    // After the last point: the last step; before the first: the first.
    const all = this.segments.flat();
    if (!all.length) return null;
    if (t > all[all.length - 1][0]) return all[all.length - 1][1];
    if (t < all[0][0]) return all[0][1];
    return null;
  }

  /** Times at which `step` was passed: [earliest, latest], or null. */
  timesOf(step) {
    let first = null;
    let last = null;
    for (const pts of this.segments) {
      for (let i = 0; i < pts.length; i++) {
        const [t, s] = pts[i];
        if (s >= step) {
          let at = t;
          if (i > 0 && pts[i - 1][1] < step) {
            const [t0, s0] = pts[i - 1];
            at = t0 + ((t - t0) * (step - s0)) / (s - s0);
          }
          if (first === null || at < first) first = at;
          if (last === null || at > last) last = at;
          break;
        }
      }
    }
    return first === null ? null : [first, last];
  }
}
