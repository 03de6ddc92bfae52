// The dashboard pages' requests beyond api.js's GET and JSON POST: raw documents (a pasted Grafana
// or Perses file, maybe YAML) and PUT, with the server's own error message, and a small queue so
// that a dashboard of a hundred panels never has more than a few queries in flight.
import { send } from '../api.js';

/** POSTs a document as it is (JSON or YAML) to /api/v1/<path>. */
export function postDocument(path, text, params = {}) {
  const qs = new URLSearchParams(params).toString();
  return send(`/api/v1/${path}${qs ? `?${qs}` : ''}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: text,
  });
}

/** PUTs a JSON body to /api/v1/<path>. */
export function putJson(path, body) {
  return send(`/api/v1/${path}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const MAX_IN_FLIGHT = 4;
let inFlight = 0;
const waiting = [];

/** Runs `task` (a function returning a promise) when fewer than MAX_IN_FLIGHT tasks run. */
export function queued(task) {
  return new Promise((resolve, reject) => {
    const start = () => {
      inFlight++;
      Promise.resolve().then(task).then(resolve, reject).finally(() => {
        inFlight--;
        if (waiting.length) waiting.shift()();
      });
    };
    if (inFlight < MAX_IN_FLIGHT) start();
    else waiting.push(start);
  });
}
