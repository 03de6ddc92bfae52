// The router: the URL holds all view state. A page module exports mount(root, ctx) and may return
// {update(ctx), dispose()}; when only the query string changes, update() redraws in place.
import { h, fill, errorBox } from './dom.js';
import { get } from './api.js';
import { fmtTime } from './format.js';
import { setRunLabel } from './roles.js';
import * as runsPage from './pages/runs.js';
import * as runPage from './pages/run.js';
import * as comparePage from './pages/compare.js';
import * as clusterPage from './pages/cluster.js';
import * as explorePage from './pages/explore.js';
import * as alertsPage from './pages/alerts.js';
import * as statusPage from './pages/status.js';
import * as dashboardsPage from './pages/dashboards.js';
import * as dashboardPage from './pages/dashboard.js';

const ROUTES = [
  { re: /^\/$/, name: 'runs', nav: 'runs', page: runsPage },
  { re: /^\/runs\/(.+)$/, name: 'run', nav: 'runs', page: runPage },
  { re: /^\/compare$/, name: 'compare', nav: 'runs', page: comparePage },
  { re: /^\/cluster$/, name: 'cluster', nav: 'cluster', page: clusterPage },
  { re: /^\/explore$/, name: 'explore', nav: 'explore', page: explorePage },
  { re: /^\/alerts$/, name: 'alerts', nav: 'alerts', page: alertsPage },
  { re: /^\/status$/, name: 'status', nav: 'status', page: statusPage },
  { re: /^\/dashboards$/, name: 'dashboards', nav: 'dashboards', page: dashboardsPage },
  { re: /^\/dashboards\/([^/]+)$/, name: 'dashboard', nav: 'dashboards', page: dashboardPage },
];

const root = document.getElementById('main');
let current = null;

/** Goes to a cockpit URL without reloading; `replace` keeps the history entry (view tweaks). */
export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

/** Changes query parameters of the current URL; null or '' removes one. */
export function setParams(changes, { push = false } = {}) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') url.searchParams.delete(key);
    else url.searchParams.set(key, String(value));
  }
  navigate(url.pathname + url.search, { replace: !push });
}

function context(match) {
  return {
    params: new URLSearchParams(location.search),
    path: match.slice(1).map(decodeURIComponent),
    navigate,
    setParams,
  };
}

function route() {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  let found = null;
  let match = null;
  for (const r of ROUTES) {
    match = path.match(r.re);
    if (match) {
      found = r;
      break;
    }
  }
  document.querySelectorAll('[data-nav]').forEach((a) => {
    a.classList.toggle('active', found !== null && a.dataset.nav === found.nav);
    if (found !== null && a.dataset.nav === found.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  const key = found ? `${found.name}:${match.slice(1).join('/')}` : `none:${path}`;
  if (current && current.key === key && current.instance && current.instance.update) {
    current.instance.update(context(match));
    return;
  }
  if (current && current.instance && current.instance.dispose) current.instance.dispose();
  current = { key, instance: null };
  document.body.dataset.page = found ? found.name : 'not-found';
  if (!found) {
    document.title = 'Not found · Flightdeck';
    fill(root, h('section.not-found', { 'data-page': 'not-found' },
      h('h1', 'Page not found'),
      h('p', `There is no cockpit page at ${path}.`),
      h('p', h('a', { href: '/' }, 'Back to the runs'))));
    return;
  }
  fill(root);
  try {
    current.instance = found.page.mount(root, context(match)) || null;
  } catch (e) {
    console.error(e);
    fill(root, errorBox(`This page failed to draw: ${e.message}`));
  }
}

// Same-origin links to cockpit pages are followed in place; anything else loads normally.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
      event.shiftKey || event.altKey) return;
  const a = event.target.closest('a[href]');
  if (!a || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') ||
      url.pathname.startsWith('/static/') || url.pathname.startsWith('/webjars/')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', route);

// A red banner on every page while any alert fires: the first thing to see at 3 a.m.
const banner = document.getElementById('alert-banner');
async function refreshBanner() {
  try {
    const data = await get('alerts');
    const firing = (data.alerts || []).filter((a) => a.state === 'firing');
    if (!firing.length) {
      banner.hidden = true;
      return;
    }
    const critical = firing.some((a) => a.labels.severity === 'critical');
    banner.className = `alert-banner ${critical ? 'critical' : 'warning'}`;
    const names = [...new Set(firing.map((a) => a.labels.alertname))];
    fill(banner, h('a', { href: '/alerts' },
      h('strong', `${firing.length} alert${firing.length > 1 ? 's' : ''} firing: `),
      names.slice(0, 6).join(', '), names.length > 6 ? ` and ${names.length - 6} more` : ''));
    banner.hidden = false;
  } catch (e) {
    banner.hidden = true;
  }
}
const clock = document.getElementById('clock');
function tick() {
  clock.textContent = `${fmtTime(Date.now() / 1000, true)} UTC`;
}
tick();
setInterval(tick, 1000);
refreshBanner();
setInterval(refreshBanner, 15000);
// The run label (exp_id, say) shapes every run query: the server writes it into the page shell,
// so the first page draws without waiting for a request.
setRunLabel(document.querySelector('meta[name="flightdeck:run-label"]').content);
route();
