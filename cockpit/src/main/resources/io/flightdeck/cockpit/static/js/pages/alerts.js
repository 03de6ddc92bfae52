// "/alerts": firing and pending alerts linked to their run and GPU, firing alerts over the last
// hours, the rule groups with state and last evaluation (?state=firing|pending|inactive filters
// rules), and the notification log with each delivery's result.
import { get, num } from '../api.js';
import { h, fill, statusPill, errorBox } from '../dom.js';
import { fmtTime, fmtDuration, fmtNum } from '../format.js';
import { Chart, PALETTE } from '../chart.js';

const REFRESH_MS = 15000;

function labelCodes(labels, skip = []) {
  return h('span.labels', Object.entries(labels || {}).filter(([k]) => !skip.includes(k)).map(([k, v]) => h('code', `${k}="${v}"`)));
}

function explore(expr) {
  return `/explore?expr=${encodeURIComponent(expr)}&range=3h`;
}

export function mount(root, ctx) {
  document.title = 'Alerts · Flightdeck';
  let params = ctx.params;
  const active = h('div', h('p.muted', 'Loading alerts…'));
  const chart = new Chart({ title: 'Firing alerts', unit: '', height: 160 });
  const groups = h('div');
  const stateFilter = h('span.seg', { role: 'group', 'aria-label': 'Rule state' });
  const log = h('div');
  root.append(
    h('section.page-head', h('h1', 'Alerts')),
    h('h2', 'Active alerts'), active,
    h('div', { style: { marginTop: '12px' } }, chart.el),
    h('h2', 'Notification log'), log,
    h('h2', 'Rule groups ', stateFilter), groups);
  let disposed = false;

  async function loadActive(gpuOwners) {
    try {
      const data = await get('alerts');
      const alerts = (data.alerts || []).filter((a) => a.state !== 'inactive')
        .sort((a, b) => (a.state === b.state ? 0 : a.state === 'firing' ? -1 : 1));
      if (!alerts.length) {
        fill(active, h('div.section-card', h('span.pill.status-ok', 'all clear'), ' No alert is firing or pending.'));
        return;
      }
      fill(active, h('div.table-wrap', h('table', { 'data-table': 'alerts' },
        h('thead', h('tr', ['State', 'Alert', 'Severity', 'Summary', 'Run · GPU', 'Since', 'Value', 'Labels'].map((c) => h('th', c)))),
        h('tbody', alerts.map((a) => {
          const l = a.labels || {};
          const host = l.Hostname || (l.instance ? l.instance.replace(/:\d+$/, '') : null);
          const gpu = l.gpu !== undefined && host ? `${host}/${l.gpu}` : null;
          const run = l.run || (gpu ? gpuOwners.get(gpu) : null);
          const runHref = run ? `/runs/${encodeURIComponent(run)}${gpu ? `?gpu=${encodeURIComponent(gpu)}` : ''}` : null;
          return h('tr', { dataset: { alert: l.alertname, state: a.state } },
            h('td', statusPill(a.state)),
            h('td', h('strong', l.alertname)),
            h('td', l.severity ? h(`span.badge.sev-${l.severity}`, l.severity) : '–'),
            h('td', { style: { whiteSpace: 'normal', minWidth: '220px', maxWidth: '420px' } }, (a.annotations && (a.annotations.summary || a.annotations.description)) || ''),
            h('td', runHref ? h('a', { href: runHref }, run) : h('span.muted', 'no run'), gpu ? h('span.muted', ` · ${gpu}`) : null),
            h('td.time', a.activeAt ? `${fmtTime(Date.parse(a.activeAt) / 1000, true)} (${fmtDuration(Date.now() / 1000 - Date.parse(a.activeAt) / 1000)})` : '–'),
            h('td.num', fmtNum(num(a.value))),
            h('td', { style: { whiteSpace: 'normal' } }, labelCodes(l, ['alertname', 'severity'])));
        })))));
    } catch (e) {
      fill(active, errorBox(e.message));
    }
  }

  async function loadChart() {
    const end = Date.now() / 1000;
    const start = end - 3 * 3600;
    chart.loading();
    try {
      const d = await get('query_range', { query: 'count by (alertname) (ALERTS{alertstate="firing"})', start, end, step: 30 });
      chart.draw({
        xMode: 'time', xRange: [start, end],
        lines: d.result.map((s, i) => ({ label: s.metric.alertname, colour: PALETTE[(i + 3) % PALETTE.length], x: s.values.map((v) => v[0]), y: s.values.map((v) => num(v[1])), width: 2 })),
      });
      if (!d.result.length) chart.empty('No alert fired in the last 3 hours.');
    } catch (e) {
      chart.error(e.message);
    }
  }

  async function loadRules() {
    const state = ['firing', 'pending', 'inactive'].includes(params.get('state')) ? params.get('state') : '';
    fill(stateFilter, [['', 'all'], ['firing', 'firing'], ['pending', 'pending'], ['inactive', 'inactive']].map(([k, label]) =>
      h(`a${state === k ? '.on' : ''}`, { href: k ? `/alerts?state=${k}` : '/alerts' }, label)));
    try {
      const data = await get('rules');
      if (!data.groups.length) {
        fill(groups, h('p.muted', 'No rule groups are loaded. Add rule_files to the configuration.'));
        return;
      }
      fill(groups, data.groups.map((g) => {
        const rules = g.rules.filter((r) => !state || r.state === state);
        if (!rules.length) return null;
        return h('section.section-card', { dataset: { group: g.name } },
          h('div', { style: { display: 'flex', gap: '12px', alignItems: 'baseline', marginBottom: '6px' } },
            h('h3', g.name), h('span.muted', g.file),
            h('span.muted', { style: { marginLeft: 'auto' } }, `every ${g.interval}s · last ${g.lastEvaluation ? fmtTime(Date.parse(g.lastEvaluation) / 1000, true) : '–'} · took ${fmtNum((g.evaluationTime || 0) * 1000)} ms`)),
          h('table', h('tbody', rules.map((r) => h('tr', { dataset: { rule: r.name } },
            h('td', { style: { width: '90px' } }, r.type === 'alerting' ? statusPill(r.state) : h('span.pill.status-unknown', 'record')),
            h('td', h('strong', r.name), r.health !== 'ok' ? h('div.field-error', `${r.health}: ${r.lastError || ''}`) : null),
            h('td.mono', { style: { whiteSpace: 'normal' } }, h('a', { href: explore(r.query) }, r.query)),
            h('td.muted', r.duration ? `for ${fmtDuration(r.duration)}` : ''),
            h('td.muted', r.labels && r.labels.severity ? h(`span.badge.sev-${r.labels.severity}`, r.labels.severity) : ''))))));
      }));
    } catch (e) {
      fill(groups, errorBox(e.message));
    }
  }

  async function loadLog() {
    try {
      const entries = await get('notifications');
      if (!entries.length) {
        fill(log, h('p.muted', 'No notification has been sent yet.'));
        return;
      }
      const attempts = entries.some((n) => n.attempts !== undefined);
      fill(log, h('div.table-wrap', h('table', { 'data-table': 'notifications' },
        h('thead', h('tr', ['Time', 'Result', 'Receiver', 'Integration', 'Alerts', attempts ? 'Attempts' : null, 'Error'].filter(Boolean).map((c) => h('th', c)))),
        h('tbody', entries.slice(0, 100).map((n) => h('tr',
          h('td.time', fmtTime(n.time, true)),
          h('td', h(`span.pill.status-${n.ok ? 'ok' : 'err'}`, n.ok ? 'delivered' : 'failed')),
          h('td', n.receiver),
          h('td', n.integration),
          h('td', { style: { whiteSpace: 'normal' } }, (n.alerts || []).map((a) => h(`span.badge.${a.status === 'firing' ? 'sev-critical' : 'sev-info'}`, `${a.alertname} ${a.status}`))),
          attempts ? h('td.num', String(n.attempts ?? '–')) : null,
          h('td.muted', { style: { whiteSpace: 'normal' } }, n.error || '')))))));
    } catch (e) {
      fill(log, errorBox(`Notification log: ${e.message}`));
    }
  }

  async function loadAll() {
    const runs = await get('runs').catch(() => []);
    if (disposed) return;
    const owners = new Map();
    for (const r of runs) for (const g of r.gpus || []) owners.set(`${g.host}/${g.gpu}`, r.run);
    await Promise.all([loadActive(owners), loadChart(), loadRules(), loadLog()]);
  }

  loadAll();
  const timer = setInterval(loadAll, REFRESH_MS);
  return {
    update(next) {
      params = next.params;
      loadRules();
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
      chart.dispose();
    },
  };
}
