// The router: the URL holds all view state. A page module exports mount(root, ctx) and may return
// {update(ctx), dispose()}; when only the query string changes, update() redraws in place.
import { h, fill, errorBox } from './dom.js';
import { get, prefetch, forgetEarly } from './api.js';
import { fmtTime } from './format.js';
import { setRunLabel } from './roles.js';
// Each page's module is loaded when the page is first opened: the run page does not wait for the
// dashboard renderer or the PromQL editor.
const ROUTES = [
  { re: /^\/$/, name: 'runs', nav: 'runs', load: () => import('./pages/runs.js') },
  { re: /^\/runs\/(.+)$/, name: 'run', nav: 'runs', load: () => import('./pages/run.js') },
  { re: /^\/compare$/, name: 'compare', nav: 'runs', load: () => import('./pages/compare.js') },
  { re: /^\/cluster$/, name: 'cluster', nav: 'cluster', load: () => import('./pages/cluster.js') },
  { re: /^\/explore$/, name: 'explore', nav: 'explore', load: () => import('./pages/explore.js') },
  { re: /^\/alerts$/, name: 'alerts', nav: 'alerts', load: () => import('./pages/alerts.js') },
  { re: /^\/status$/, name: 'status', nav: 'status', load: () => import('./pages/status.js') },
  { re: /^\/dashboards$/, name: 'dashboards', nav: 'dashboards', load: () => import('./pages/dashboards.js') },
  { re: /^\/dashboards\/([^/]+)$/, name: 'dashboard', nav: 'dashboards', load: () => import('./pages/dashboard.js') },
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
  forgetEarly();
  // The run page's first question, asked while its scripts load rather than after.
  if (found.name === 'run') prefetch(`runs/${encodeURIComponent(decodeURIComponent(match[1]))}`);
  const opening = current;
  found.load().then((page) => {
    if (current !== opening) return; // navigated elsewhere while the module loaded
    try {
      opening.instance = page.mount(root, context(match)) || null;
    } catch (e) {
      console.error(e);
      fill(root, errorBox(`This page failed to draw: ${e.message}`));
    }
  }, (e) => {
    if (current === opening) fill(root, errorBox(`This page failed to load: ${e.message}`));
  });
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
