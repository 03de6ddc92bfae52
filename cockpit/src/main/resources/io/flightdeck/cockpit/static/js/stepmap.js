// A run's step map (monotonic segments of [time, step]) turned into conversions between the
// three x axes. A step reached twice (a restart) maps to its earliest time for a range start and
// its latest for a range end, so a zoom never drops either pass.

export class StepMap {
  constructor(data) {
    this.segments = ((data && data.segments) || []).map((s) => s.points).filter((p) => p.length);
  }

  /**
   * The step at time t: interpolated inside a segment; between segments (a restart's downtime) or
   * after the last one, the last step reached, since no progress was made; null when empty.
   */
  stepAt(t) {
    if (!this.segments.length) return null;
    let pts = null;
    for (const segment of this.segments) if (segment[0][0] <= t) pts = segment;
    if (pts === null) return this.segments[0][0][1];
    if (t >= pts[pts.length - 1][0]) return pts[pts.length - 1][1];
    for (let i = 1; i < pts.length; i++) {
      if (t <= pts[i][0]) {
        const [t0, s0] = pts[i - 1];
        const [t1, s1] = pts[i];
        return t1 === t0 ? s1 : s0 + ((s1 - s0) * (t - t0)) / (t1 - t0);
      }
    }
    return pts[pts.length - 1][1];
  }

  /** When the step last changed (the start of a stall), or null. */
  lastProgress() {
    const pts = this.segments[this.segments.length - 1];
    if (!pts) return null;
    const last = pts[pts.length - 1][1];
    for (let i = pts.length - 1; i > 0; i--) if (pts[i - 1][1] !== last) return pts[i][0];
    return pts[0][0];
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
