// Grafana's links: the dashboard's own (a URL, or the dashboards carrying some tags, their
// variables and time range carried along when asked) and each panel's, with variables written in.
import { get } from '../api.js';
import { h, fill } from '../dom.js';

/**
 * The page's parameters that a link carries along: var-NAME with includeVars, from and to with
 * keepTime. The URL's timezone= goes with the time, and to every dashboard found by tag, so that
 * the next dashboard shows its times on the clock this one was read in.
 */
function carried({ includeVars, keepTime }, toDashboards) {
  const out = new URLSearchParams();
  const here = new URLSearchParams(location.search);
  for (const [k, v] of here) {
    const time = k === 'from' || k === 'to';
    const zone = k === 'timezone' && (keepTime || toDashboards);
    if ((includeVars && k.startsWith('var-')) || (keepTime && time) || zone) out.append(k, v);
  }
  return out;
}

function withParams(url, extra) {
  if (![...extra.keys()].length) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${extra.toString()}`;
}

/** Only http(s) and same-site links: a dashboard file must not smuggle javascript: URLs in. */
function safe(url) {
  try {
    const u = new URL(url, location.origin);
    return u.protocol === 'http:' || u.protocol === 'https:' ? url : null;
  } catch (e) {
    return null;
  }
}

function anchor(title, url, targetBlank, tooltip) {
  const href = safe(url);
  if (!href) return h('span.muted', { title: `not a web link: ${url}` }, title || url);
  return h('a.dash-link', { href, title: tooltip || '', ...(targetBlank ? { target: '_blank', rel: 'noopener noreferrer' } : {}) }, title || url);
}

/**
 * The dashboard's links for its header. `interpolate` writes the variables; `uid` is left out of
 * the dashboards found by tag.
 */
export function dashboardLinks(links, { interpolate, uid }) {
  const box = h('nav.dash-links', { 'aria-label': 'Dashboard links' });
  for (const link of links || []) {
    const extra = carried(link, link.type === 'dashboards');
    if (link.type === 'dashboards') {
      const slot = h('span.dash-link-group', { dataset: { linkTags: (link.tags || []).join(',') } });
      box.append(slot);
      get('dashboards', { tag: link.tags || [] }).then((found) => {
        const others = found.filter((d) => d.uid !== uid);
        const items = others.map((d) => anchor(d.title, withParams(`/dashboards/${encodeURIComponent(d.uid)}`, extra), link.targetBlank, (d.tags || []).join(', ')));
        if (link.asDropdown) {
          fill(slot, h('details.dash-link-menu', h('summary', interpolate(link.title) || 'Dashboards'), items.length ? items : h('span.muted', 'none')));
        } else {
          fill(slot, items);
        }
      }).catch(() => fill(slot, h('span.muted', 'dashboards by tag unavailable')));
    } else {
      box.append(anchor(interpolate(link.title), withParams(interpolate(link.url), extra), link.targetBlank, link.tooltip));
    }
  }
  return box.childNodes.length ? box : null;
}

/** A panel's links (Grafana's panel.links), for its header; null when it has none. */
export function panelLinks(links, interpolate) {
  if (!links || !links.length) return null;
  return h('span.dash-panel-links', links.map((l) => anchor(interpolate(l.title), interpolate(l.url), l.targetBlank, l.tooltip)));
}
