// A dashboard's versions (GET /api/v1/dashboards/<uid>/versions): who saved each, when, with what
// message, and the JSON paths its diff touched; each older version has a Restore button
// (POST .../versions/<n>/restore), which saves it again as a new version.
import { get, post } from '../api.js';
import { h, fill, errorBox } from '../dom.js';
import { formatTime, zoneLabel } from './timezone.js';

/** The part of a diff line that names what changed, without the values: "changed $.title". */
function changePath(line) {
  return line.replace(/(: | = )[\s\S]*$/, '');
}

/**
 * Fills `box` with the versions of dashboard `uid`, newest first, their times in `zone`
 * (resolveZone's answer). `onRestored(stored)` is called with the dashboard as the server answers
 * a restore.
 */
export async function showVersions(box, uid, onRestored, zone) {
  fill(box, h('p.muted', 'Loading versions…'));
  let versions;
  try {
    versions = await get(`dashboards/${encodeURIComponent(uid)}/versions`);
  } catch (e) {
    fill(box, errorBox(e.message));
    return;
  }
  const latest = Math.max(...versions.map((v) => v.version));
  const status = h('div', { role: 'status' });
  const rows = versions.map((v) => h('tr', { dataset: { version: String(v.version) } },
    h('td.num', String(v.version)),
    h('td', v.author || '—'),
    h('td', h('time', { datetime: v.created }, formatTime(Date.parse(v.created), zone.zone))),
    h('td', v.message || ''),
    h('td', h('ul.dash-diff', v.diff.map((line) => h('li', { title: line }, h('code', changePath(line)))))),
    h('td', v.version === latest ? h('span.muted', 'current')
      : h('button', { type: 'button', dataset: { restore: String(v.version) }, onclick: async (e) => {
        e.target.disabled = true;
        try {
          const stored = await post(`dashboards/${encodeURIComponent(uid)}/versions/${v.version}/restore?author=cockpit`, {});
          fill(status, h('div.dash-saved', `Restored version ${v.version} as version ${stored.version}.`));
          onRestored(stored);
        } catch (err) {
          e.target.disabled = false;
          fill(status, errorBox(err.message));
        }
      } }, 'Restore'))));
  fill(box,
    h('h2', 'Versions'),
    status,
    h('table.dash-versions-table', { dataset: { table: 'versions' } },
      h('thead', h('tr', ['Version', 'Who', `When, ${zoneLabel(zone)}`, 'Message', 'Changed', ''].map((t) => h('th', t)))),
      h('tbody', rows)));
}
