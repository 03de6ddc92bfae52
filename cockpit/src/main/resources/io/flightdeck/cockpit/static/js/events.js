// A run's events as a person reads them: one incident seen by sixteen ranks is one thing, not
// sixteen. Events of the same kind and title that follow each other closely are grouped.

/** Steps apart within which events of one kind and title are the same occurrence. */
const STEP_WINDOW = 5;

/** Where an event happened: its host/gpu labels first, then the host the server attributed. */
export function eventPlace(e) {
  const l = e.labels || {};
  // A demo incident's own host is the demo exporter's address: only its labels say where it is.
  const host = l.host || (e.kind === 'demo_incident' ? null : e.host) || null;
  const gpu = l.gpu ?? e.gpu ?? null;
  return { host, gpu, rank: l.rank ?? null };
}

/** "node-0/gpu3", "node-0", or '' when the event names no place. */
export function placeText(p) {
  if (!p.host) return p.gpu !== null ? `gpu${p.gpu}` : '';
  return p.gpu !== null ? `${p.host}/gpu${p.gpu}` : p.host;
}

/**
 * Groups time-sorted events: an event joins the open group of its kind and title when it comes
 * within `windowSeconds` of that group's last member, or within a few steps of it.
 * Each group: {kind, title, time, end, step, stepLast, members: [event...], hosts: [...]}.
 */
export function groupEvents(events, windowSeconds) {
  const groups = [];
  const open = new Map();
  for (const e of events) {
    const key = `${e.kind}\u0000${e.title}`;
    const g = open.get(key);
    const last = g && g.members[g.members.length - 1];
    const near = last && (e.time - last.time <= windowSeconds
      || (e.step != null && last.step != null && Math.abs(e.step - last.step) <= STEP_WINDOW));
    if (near) {
      g.members.push(e);
      if (e.end != null && (g.end == null || e.end > g.end)) g.end = e.end;
      if (e.step != null) g.stepLast = Math.max(g.stepLast ?? e.step, e.step);
    } else {
      const fresh = { kind: e.kind, title: e.title, time: e.time, end: e.end ?? null, step: e.step ?? null, stepLast: e.step ?? null, members: [e] };
      groups.push(fresh);
      open.set(key, fresh);
    }
  }
  for (const g of groups) {
    const places = g.members.map(eventPlace);
    g.hosts = [...new Set(places.map((p) => p.host).filter(Boolean))].sort();
    g.places = [...new Set(places.map(placeText).filter(Boolean))].sort();
  }
  return groups;
}

/** One line per member, for a tooltip: "11:06:24 step 201 node-1/gpu4 rank 12". */
export function memberLines(g, fmtTime, fmtStep) {
  return g.members.map((e) => {
    const p = eventPlace(e);
    return [fmtTime(e.time, true), e.step != null ? `step ${fmtStep(e.step)}` : null, placeText(p) || null,
      p.rank !== null ? `rank ${p.rank}` : null].filter(Boolean).join(' · ');
  });
}
