// Runs one panel's interpolated queries (as GET /api/v1/dashboards/{uid}/queries gives them) on
// the Prometheus API and turns the answers into frames: {refId, name, labels, x (seconds), y}.
import { get, num } from '../api.js';
import { queued } from './requests.js';

function labelText(labels) {
  const name = labels.__name__ || '';
  const rest = Object.entries(labels).filter(([k]) => k !== '__name__').map(([k, v]) => `${k}="${v}"`);
  if (!rest.length) return name;
  return `${name}{${rest.join(', ')}}`;
}

/** A series' display name from Grafana's legend format ({{label}}, or __auto / empty for its labels). */
export function legendName(format, labels, expr) {
  if (format && format !== '__auto') {
    return format.replace(/\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g, (m, k) => labels[k] ?? '');
  }
  return labelText(labels) || expr;
}

function frames(query, data) {
  const out = [];
  const add = (metric, pairs) => {
    out.push({
      refId: query.refId,
      labels: metric,
      name: legendName(query.legendFormat, metric, query.expr),
      x: pairs.map((p) => p[0]),
      y: pairs.map((p) => num(p[1])),
    });
  };
  if (data.resultType === 'matrix') data.result.forEach((s) => add(s.metric, s.values));
  else if (data.resultType === 'vector') data.result.forEach((s) => add(s.metric, [s.value]));
  else if (data.resultType === 'scalar') add({}, [data.result]);
  return out;
}

/**
 * Runs every visible query of a panel; answers {frames, errors: [message]} where each error names
 * its query. A range query uses the server's step and aligned range; an instant one its end.
 */
export async function runPanelQueries(queries, signal) {
  const result = { frames: [], errors: [] };
  await Promise.all(queries.filter((q) => !q.hide && q.expr.trim()).map(async (q) => {
    try {
      const data = await queued(() => {
        if (signal && signal.aborted) throw new DOMException('aborted', 'AbortError');
        return q.instant && !q.range
          ? get('query', { query: q.expr, time: q.end }, signal)
          : get('query_range', { query: q.expr, start: q.start, end: q.end, step: q.step }, signal);
      });
      result.frames.push(...frames(q, data));
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      result.errors.push(`${q.refId}: ${e.message}`);
    }
  }));
  const order = new Map(queries.map((q, i) => [q.refId, i]));
  result.frames.sort((a, b) => (order.get(a.refId) ?? 0) - (order.get(b.refId) ?? 0));
  return result;
}
