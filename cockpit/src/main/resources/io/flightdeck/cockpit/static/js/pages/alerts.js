// "/alerts": firing and pending alerts linked to their run and GPU, firing alerts over the last
// hours, silences (kept in Alertmanager) with a silence button on each alert, the rule groups with
// state and last evaluation (?state=firing|pending|inactive filters rules), and the notification
// log with each delivery's result.
import { get, num } from '../api.js';
import { h, fill, statusPill, errorBox } from '../dom.js';
import { fmtTime, fmtDuration, fmtNum } from '../format.js';
import { Chart, PALETTE } from '../chart.js';
import { loadSilences, silenceForm, silencing } from '../silences.js';

const REFRESH_MS = 15000;

function labelCodes(labels, skip = []) {
  return h('span.labels', Object.entries(labels || {}).filter(([k]) => !skip.includes(k)).map(([k, v]) => h('code', `${k}="${v}"`)));
}

/**
 * One badge per alert name and status, "TrainingLossNotFinite ×16 firing", its instances (host,
 * GPU, rank) in the tooltip: a delivery of sixteen ranks' alerts reads as one alert.
 */
function alertBadges(alerts) {
  const byName = new Map();
  for (const a of alerts) {
    const key = `${a.alertname}\u0000${a.status}`;
    if (!byName.has(key)) byName.set(key, { name: a.alertname, status: a.status, members: [] });
    byName.get(key).members.push(a.labels || {});
  }
  return [...byName.values()].map((g) => {
    const n = g.members.length;
    const where = g.members.map((l) => [l.Hostname || l.host || (l.instance || '').replace(/:\d+$/, ''), l.gpu !== undefined ? `gpu${l.gpu}` : null, l.rank !== undefined ? `rank ${l.rank}` : null].filter(Boolean).join(' '));
    return h(`span.badge.${g.status === 'firing' ? 'sev-critical' : 'sev-info'}`, { title: where.join('\n'), dataset: { alert: g.name, count: n } },
      `${g.name}${n > 1 ? ` \u00d7${n}` : ''} ${g.status}`);
  });
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
  const silenceList = h('div');
  let silences = [];
  root.append(
    h('section.page-head', h('h1', 'Alerts')),
    h('h2', 'Active alerts'), active,
    h('h2', 'Silences'), silenceList,
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
      // One row per alert name and state: sixteen ranks firing the same rule is one problem; the
      // instances are listed in the row's details.
      const rows = new Map();
      for (const a of alerts) {
        const key = `${a.labels.alertname}\u0000${a.state}`;
        if (!rows.has(key)) rows.set(key, []);
        rows.get(key).push(a);
      }
      fill(active, h('div.table-wrap', h('table', { 'data-table': 'alerts' },
        h('thead', h('tr', ['State', 'Alert', 'Severity', 'Summary', 'Run · GPU', 'Since', 'Value', 'Instances', ''].map((c) => h('th', c)))),
        h('tbody', [...rows.values()].map((group) => {
          const first = group[0];
          const l = first.labels || {};
          const placed = group.map((a) => {
            const al = a.labels || {};
            const host = al.Hostname || (al.instance ? al.instance.replace(/:\d+$/, '') : null);
            const gpu = al.gpu !== undefined && host ? `${host}/${al.gpu}` : null;
            return { a, host, gpu, run: al.run || (gpu ? gpuOwners.get(gpu) : null) };
          });
          const runs = [...new Set(placed.map((p) => p.run).filter(Boolean))];
          const gpus = [...new Set(placed.map((p) => p.gpu).filter(Boolean))];
          const hosts = [...new Set(placed.map((p) => p.host).filter(Boolean))].sort();
          const runLink = (run) => h('a', { href: `/runs/${encodeURIComponent(run)}${gpus.length === 1 ? `?gpu=${encodeURIComponent(gpus[0])}` : ''}` }, run);
          const values = group.map((a) => num(a.value)).filter((v) => v !== null);
          const since = Math.min(...group.map((a) => (a.activeAt ? Date.parse(a.activeAt) / 1000 : Infinity)));
          const summary = (first.annotations && (first.annotations.summary || first.annotations.description)) || '';
          const muted = silencing(silences, l);
          const row = h('tr', { dataset: { alert: l.alertname, state: first.state, count: group.length, silenced: muted ? muted.id : null } },
            h('td', statusPill(first.state), muted ? h('span.badge.silenced', { title: muted.comment }, ` silenced until ${fmtTime(Date.parse(muted.endsAt) / 1000, true)}`) : null),
            h('td', h('strong', l.alertname), group.length > 1 ? h('span.muted', ` \u00d7${group.length}`) : null),
            h('td', l.severity ? h(`span.badge.sev-${l.severity}`, l.severity) : '–'),
            h('td', { style: { whiteSpace: 'normal', minWidth: '220px', maxWidth: '420px' } },
              group.length > 1 ? `${group.length} instances on ${hosts.join(', ') || 'unknown hosts'}; e.g. ${summary}` : summary),
            h('td', runs.length ? runs.map((r, i) => [i ? ', ' : '', runLink(r)]) : h('span.muted', 'no run'),
              gpus.length ? h('span.muted', ` · ${gpus.length > 3 ? `${gpus.length} GPUs` : gpus.join(', ')}`) : null),
            h('td.time', Number.isFinite(since) ? `${fmtTime(since, true)} (${fmtDuration(Date.now() / 1000 - since)})` : '–'),
            h('td.num', values.length > 1 && Math.min(...values) !== Math.max(...values)
              ? `${fmtNum(Math.min(...values))}–${fmtNum(Math.max(...values))}` : fmtNum(values[0] ?? null)),
            h('td', { style: { whiteSpace: 'normal', minWidth: '260px' } }, group.length === 1
              ? labelCodes(l, ['alertname', 'severity'])
              : h('details', h('summary', `${group.length} label sets`), placed.map((p) => h('div', labelCodes(p.a.labels, ['alertname', 'severity', 'job', 'run']))))),
            h('td', muted ? '' : h('button', {
              type: 'button',
              'aria-label': `Silence ${l.alertname}`,
              onclick() {
                if (row.nextSibling && row.nextSibling.dataset.silenceFor) return;
                // The alert name, narrowed to its run when all its instances belong to one.
                const matchers = { alertname: l.alertname, ...(runs.length === 1 && group.every((a) => a.labels.run === runs[0]) ? { run: runs[0] } : {}) };
                const formRow = h('tr', { dataset: { silenceFor: l.alertname } }, h('td', { colspan: 9 },
                  silenceForm(matchers, () => { formRow.remove(); refresh(); })));
                row.after(formRow);
                formRow.querySelector('input[aria-label=Comment]').focus();
              },
            }, 'Silence…')));
          return row;
        })))));
    } catch (e) {
      fill(active, errorBox(e.message));
    }
  }

  /**
   * Firing alerts per name over the last hours. ALERTS samples are written at every rule
   * evaluation, so an alert that fired between two steps of the graph would be missed by a plain
   * instant lookup (and with a short lookback-delta, always is): each point takes the max over its
   * whole step instead. The range narrows to where the first alert fired, so a young server's
   * history is not a sliver at the right edge.
   */
  async function loadChart() {
    const end = Date.now() / 1000;
    const hours = 3;
    let start = end - hours * 3600;
    chart.loading();
    try {
      const firing = (from, step) => get('query_range', {
        query: `count by (alertname) (max_over_time(ALERTS{alertstate="firing"}[${step}s]))`, start: from, end, step,
      });
      let step = 30;
      let d = await firing(start, step);
      const first = Math.min(...d.result.map((s) => s.values[0][0]));
      if (Number.isFinite(first) && first - start > 600) {
        start = Math.max(start, first - Math.max(60, (end - first) * 0.05));
        step = Math.max(1, Math.floor((end - start) / 400));
        d = await firing(start, step);
      }
      chart.setSubtitle(`firing instances per alert name since ${fmtTime(start)}, each point the most in its ${fmtDuration(step)}`);
      chart.draw({
        xMode: 'time', xRange: [start, end],
        lines: d.result.map((s, i) => ({ label: s.metric.alertname, colour: PALETTE[(i + 3) % PALETTE.length], x: s.values.map((v) => v[0]), y: s.values.map((v) => num(v[1])), width: 2 })),
      });
      if (!d.result.length) chart.empty(`No alert fired in the last ${hours} hours.`);
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
          h('td', { style: { whiteSpace: 'normal' } }, alertBadges(n.alerts || [])),
          attempts ? h('td.num', String(n.attempts ?? '–')) : null,
          h('td.muted', { style: { whiteSpace: 'normal' } }, n.error || '')))))));
    } catch (e) {
      fill(log, errorBox(`Notification log: ${e.message}`));
    }
  }

  let owners = new Map();

  /** Silences first: each alert row says whether one mutes it. */
  async function refresh() {
    silences = await loadSilences(silenceList, refresh);
    if (!disposed) await loadActive(owners);
  }

  async function loadAll() {
    const runs = await get('runs').catch(() => []);
    if (disposed) return;
    owners = new Map();
    for (const r of runs) for (const g of r.gpus || []) owners.set(`${g.host}/${g.gpu}`, r.run);
    await Promise.all([refresh(), loadChart(), loadRules(), loadLog()]);
  }

  loadAll();
  // A refresh must not wipe a silence form being typed into.
  const timer = setInterval(() => { if (!root.querySelector('form.silence-form')) loadAll(); }, REFRESH_MS);
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
