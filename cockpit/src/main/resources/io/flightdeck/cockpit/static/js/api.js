// The one way the cockpit talks to the server: the HTTP API's JSON envelope, with errors turned
// into messages a person can read (the server's own message whenever it sent one).

/** An answer that was not {"status":"success"}; `status` is the HTTP status, 0 for no answer. */
export class ApiError extends Error {
  constructor(message, status, type) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

/** Any request to a path of the server, answered as the API's envelope: its data, or ApiError. */
export function send(path, init) {
  return envelope(path, fetch(path, { cache: 'no-store', credentials: 'same-origin', ...init }));
}

/** The envelope of a fetch already started for `path`. */
async function envelope(path, started) {
  let response;
  try {
    response = await started;
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(`cannot reach the server (${e.message})`, 0, 'network');
  }
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new ApiError(
      `${path.split('?')[0]} answered ${response.status}: ${text.slice(0, 200) || 'no body'}`,
      response.status, 'bad_response');
  }
  if (body.status !== 'success') {
    throw new ApiError(body.error || `${path.split('?')[0]} answered ${response.status}`,
      response.status, body.errorType || 'unknown');
  }
  return body.data;
}

// GETs started before the page that needs them has loaded its module; each answers once.
const early = new Map();

/**
 * Starts GET /api/v1/<path> now, while the page's scripts load; the page's first get() of the same
 * path takes its answer. Forgotten when the next page opens (forgetEarly).
 */
export function prefetch(path) {
  // The page shell's inline script may have asked already, before any module had loaded.
  const shell = window.flightdeckEarly;
  window.flightdeckEarly = undefined;
  const answer = shell && shell.path === path
    ? envelope(`/api/v1/${path}`, shell.response)
    : send(`/api/v1/${path}`, {});
  answer.catch(() => {}); // a failure is the page's to report, when it asks
  early.set(path, answer);
}

export function forgetEarly() {
  early.clear();
}

/** GET /api/v1/<path> with query parameters (arrays repeat the parameter). */
export function get(path, params = {}, signal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  const qs = query.toString();
  const target = `${path}${qs ? `?${qs}` : ''}`;
  if (early.has(target)) {
    const answer = early.get(target);
    early.delete(target);
    return answer;
  }
  return send(`/api/v1/${target}`, { signal });
}

/** POST a JSON body to /api/v1/<path>. */
export function post(path, body, signal) {
  return send(`/api/v1/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

/** DELETE /api/v1/<path>. */
export function del(path) {
  return send(`/api/v1/${path}`, { method: 'DELETE' });
}

/** POST /api/v1/cockpit/series: downsampled series, one result per query (see the API contract). */
export function series(request, signal) {
  return post('cockpit/series', request, signal);
}

/** A Prometheus value (number, or string such as "NaN", "+Inf", "1.5") as a JS number; null stays null. */
export function num(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (v === '+Inf' || v === 'Inf') return Infinity;
  if (v === '-Inf') return -Infinity;
  return Number(v);
}

/** Quotes a string as a PromQL label value. */
export function quote(value) {
  return `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Escapes regex metacharacters so a value matches itself inside =~. */
export function regexEscape(value) {
  return String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
