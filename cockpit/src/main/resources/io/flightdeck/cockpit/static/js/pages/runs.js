// "/": every run in one table, refreshed live. ?q=<regex> filters by name, ?sort=<column> (a
// leading "-" for descending) orders, ?sel=a,b keeps the runs ticked for comparison, ?hide=a,b
// hides runs (?hidden=show lists them again).
import { get, series, num } from '../api.js';
import { h, fill, statusPill, errorBox } from '../dom.js';
import { fmtNum, fmtDuration, fmtTime, fmtStep } from '../format.js';
import { sparkline } from '../sparkline.js';

const REFRESH_MS = 10000;
const STATUS_ORDER = { crashed: 0, stalled: 1, running: 2, finished: 3 };

const COLUMNS = [
  { key: 'status', label: 'Status', value: (r) => STATUS_ORDER[r.status] ?? 9 },
  { key: 'run', label: 'Run', value: (r) => r.run },
  { key: 'progress', label: 'Progress · ETA', value: (r) => progressOf(r) ?? -1 },
  { key: 'step', label: 'Step', value: (r) => r.step ?? -1 },
  { key: 'rate', label: 'Steps/s', value: (r) => r.steps_per_second ?? -1 },
  { key: 'loss', label: 'Loss', value: (r) => num(r.last && r.last.loss) ?? Infinity },
  { key: 'gpus', label: 'GPUs', value: (r) => (r.gpus || []).length },
  { key: 'hosts', label: 'Hosts', value: (r) => (r.hosts || []).join(',') },
  { key: 'start', label: 'Started', value: (r) => r.first_seen },
  { key: 'duration', label: 'Duration', value: (r) => r.last_seen - r.first_seen },
  { key: 'alerts', label: 'Alerts', value: (r) => firing(r).length },
];

function progressOf(r) {
  return r.max_steps ? Math.min(1, (r.step || 0) / r.max_steps) : null;
}

function firing(r) {
  return (r.alerts || []).filter((a) => a.state === 'firing');
}

export function mount(root, ctx) {
  const filter = h('input.filter', { type: 'search', placeholder: 'Filter runs by regex', 'aria-label': 'Filter runs by regular expression', value: ctx.params.get('q') || '' });
  const filterError = h('span.field-error');
  const compareButton = h('button.primary', { type: 'button', disabled: true }, 'Compare');
  const hideButton = h('button', { type: 'button', disabled: true }, 'Hide selected');
  const hiddenToggle = h('button', { type: 'button', hidden: true });
  const summary = h('span.muted.summary');
  const table = h('div.table-wrap');
  const updated = h('span.muted.updated');
  root.append(
    h('section.page-head', h('h1', 'Runs'), summary, updated),
    h('div.toolbar', filter, filterError, compareButton, hideButton, hiddenToggle),
    table);
  document.title = 'Runs · Flightdeck';

  let runs = null;
  let loadError = null;
  let params = ctx.params;
  const sparkCache = new Map(); // run -> {key, values}
  let timer = null;
  let debounce = null;
  let disposed = false;

  const selected = () => new Set((params.get('sel') || '').split(',').filter(Boolean));
  const hidden = () => new Set((params.get('hide') || '').split(',').filter(Boolean));

  hideButton.addEventListener('click', () => {
    const all = new Set([...hidden(), ...selected()]);
    ctx.setParams({ hide: [...all].join(','), sel: null });
  });
  hiddenToggle.addEventListener('click', () => {
    ctx.setParams({ hidden: params.get('hidden') === 'show' ? null : 'show' });
  });

  filter.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => ctx.setParams({ q: filter.value }), 250);
  });
  compareButton.addEventListener('click', () => {
    ctx.navigate(`/compare?runs=${[...selected()].map(encodeURIComponent).join(',')}`);
  });

  function setSelected(run, on) {
    const s = selected();
    if (on) s.add(run);
    else s.delete(run);
    ctx.setParams({ sel: [...s].join(',') });
  }

  function render() {
    if (loadError) {
      fill(table, errorBox(`Cannot list runs: ${loadError}`));
      return;
    }
    if (runs === null) return;
    let pattern = null;
    const q = params.get('q') || '';
    filterError.textContent = '';
    try {
      pattern = q ? new RegExp(q) : null;
    } catch (e) {
      filterError.textContent = `invalid regex: ${e.message}`;
    }
    let rows = pattern ? runs.filter((r) => pattern.test(r.run)) : runs.slice();
    const hide = hidden();
    const showHidden = params.get('hidden') === 'show';
    const hiddenCount = rows.filter((r) => hide.has(r.run)).length;
    if (!showHidden) rows = rows.filter((r) => !hide.has(r.run));
    hiddenToggle.hidden = hide.size === 0;
    hiddenToggle.textContent = showHidden ? `Hide the ${hide.size} hidden` : `Show ${hiddenCount} hidden`;
    // Without a chosen order the runs needing attention come first (crashed, stalled), then the
    // most recently seen, as the server lists them.
    const sort = params.get('sort') || 'status';
    if (sort) {
      const desc = sort.startsWith('-');
      const col = COLUMNS.find((c) => c.key === sort.replace(/^-/, ''));
      if (col) {
        rows.sort((a, b) => {
          const va = col.value(a);
          const vb = col.value(b);
          const c = typeof va === 'string' ? va.localeCompare(vb) : va - vb;
          return desc ? -c : c;
        });
      }
    }
    const sel = selected();
    compareButton.disabled = sel.size < 2;
    hideButton.disabled = sel.size === 0;
    compareButton.textContent = sel.size ? `Compare ${sel.size} runs` : 'Compare';
    const counts = {};
    runs.forEach((r) => { counts[r.status] = (counts[r.status] || 0) + 1; });
    fill(summary, Object.entries(counts).map(([s, n]) => h(`span.count.status-text-${s}`, `${n} ${s}`)));
    if (!runs.length) {
      fill(table, h('div.empty-state', h('h2', 'No runs yet'),
        h('p', 'A run appears here as soon as any series carries a run label: scrape a training job, push, remote-write, or point --tensorboard.logdir at your logs.')));
      return;
    }
    const head = h('tr', h('th', { scope: 'col' }, h('span.sr-only', 'Select')), COLUMNS.map((c) => {
      const active = params.get('sort') && sort.replace(/^-/, '') === c.key;
      const next = active && !sort.startsWith('-') ? `-${c.key}` : c.key;
      return h(`th.col-${c.key}`, { scope: 'col', 'aria-sort': active ? (sort.startsWith('-') ? 'descending' : 'ascending') : null },
        h('button.sort', { type: 'button', onclick: () => ctx.setParams({ sort: next }) },
          c.label, active ? (sort.startsWith('-') ? ' ▾' : ' ▴') : ''));
    }));
    const body = h('tbody', rows.map((r) => row(r, sel.has(r.run))));
    // A redraw (live refresh, sparklines arriving) keeps the keyboard focus on its run.
    const focused = table.contains(document.activeElement) && document.activeElement.dataset ? document.activeElement.dataset.run : null;
    fill(table, h('table.runs', { 'data-table': 'runs' }, h('thead', head), body));
    if (focused) {
      const again = body.querySelector(`tr[data-run="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    if (!rows.length) table.append(h('p.muted', `No run matches /${q}/.`));
  }

  function row(r, isSelected) {
    const href = `/runs/${encodeURIComponent(r.run)}`;
    const alerts = firing(r);
    const progress = progressOf(r);
    // The ETA's p10–p90 range is in the tooltip (and on the run page): the table must fit a laptop.
    const eta = r.status === 'running' && r.eta_seconds !== null && r.eta_seconds !== undefined
      ? `ETA ${fmtDuration(r.eta_seconds)}` : r.status === 'stalled' ? 'stalled' : '';
    const etaRange = r.status === 'running' && r.eta_low_seconds != null && r.eta_high_seconds != null
      ? `between ${fmtDuration(r.eta_low_seconds)} and ${fmtDuration(r.eta_high_seconds)} (p10–p90 of the recent step rate)` : null;
    const loss = num(r.last && r.last.loss);
    const lossInner = h('div.loss-inner', h(`span${loss !== null && !Number.isFinite(loss) ? '.bad-value' : ''}`, fmtNum(loss, 4)));
    const lossCell = h('td.num.loss-cell', lossInner);
    const spark = sparkCache.get(r.run);
    if (spark) lossInner.append(sparkline(spark.values));
    const tr = h(`tr.run-row.row-${r.status}`, {
      tabindex: 0,
      dataset: { run: r.run, status: r.status },
      'aria-label': `Run ${r.run}, ${r.status}`,
      onkeydown: (e) => {
        if (e.target !== tr) return;
        if (e.key === 'Enter') ctx.navigate(href);
        else if (e.key === ' ') {
          e.preventDefault();
          setSelected(r.run, !isSelected);
        }
      },
    },
    h('td', h('input', { type: 'checkbox', checked: isSelected, tabindex: -1, 'aria-label': `Select ${r.run} for comparison`, onchange: (e) => setSelected(r.run, e.target.checked) })),
    h('td', statusPill(r.status)),
    h('td.run-name', h('a', { href, tabindex: -1 }, r.run), (r.sources || []).length ? h('span.sources', r.sources.join(' · ')) : null),
    h('td.progress-cell', progress !== null
      ? h('div.progress', { role: 'progressbar', 'aria-valuenow': Math.round(progress * 100), 'aria-valuemin': 0, 'aria-valuemax': 100 },
        h('div.bar', h('div.fill', { class: `fill-${r.status}`, style: { width: `${(progress * 100).toFixed(1)}%` } })),
        h('span.progress-text', `${(progress * 100).toFixed(1)}%`), h('span.eta', { title: etaRange }, eta))
      : h('span.muted', eta || 'total unknown')),
    h('td.num', fmtStep(r.step), r.max_steps ? h('span.muted', ` / ${fmtStep(r.max_steps)}`) : ''),
    h('td.num', fmtNum(r.steps_per_second)),
    lossCell,
    h('td', h('span.num', String((r.gpus || []).length)), healthStrip(r)),
    h('td.hosts', (r.hosts || []).length ? r.hosts.map((host, i) => h('span.host', i < r.hosts.length - 1 ? `${host},` : host)) : '–'),
    h('td.time.col-start', fmtTime(r.first_seen)),
    h('td.num', { title: `started ${fmtTime(r.first_seen, true)}` }, fmtDuration(r.last_seen - r.first_seen)),
    h('td.alerts', alerts.length ? alertBadges(alerts) : h('span.muted', '–')));
    tr.addEventListener('click', (e) => {
      if (e.target.closest('input,button,a')) return;
      ctx.navigate(href);
    });
    return tr;
  }

  function healthStrip(r) {
    const bad = new Set(firing(r).filter((a) => a.labels && a.labels.gpu !== undefined)
      .map((a) => `${a.labels.Hostname || a.labels.host || (a.labels.instance || '').replace(/:\d+$/, '')}/${a.labels.gpu}`));
    const gpus = r.gpus || [];
    if (!gpus.length) return null;
    const shown = gpus.slice(0, 64);
    // Eight cells a row (a node's worth, usually), so the table fits a laptop's width.
    return h('span.health-strip', { 'aria-hidden': 'true', style: { width: `${Math.min(8, shown.length) * 9}px` } }, shown.map((g) => {
      const key = `${g.host}/${g.gpu}`;
      return h(`i.cell${bad.has(key) ? '.bad' : ''}`, { title: `${key}${bad.has(key) ? ': alert firing' : ''}` });
    }));
  }

  /** One badge per alert name with its count: sixteen ranks' alerts are one badge "×16". */
  function alertBadges(alerts) {
    const byName = new Map();
    for (const a of alerts) {
      if (!byName.has(a.alertname)) byName.set(a.alertname, []);
      byName.get(a.alertname).push(a);
    }
    return [...byName.values()].map((same) => h(`span.badge.sev-${same[0].severity || 'warning'}`,
      { title: (same[0].annotations && same[0].annotations.summary) || '' }, same.length > 1 ? `${same[0].alertname} \u00d7${same.length}` : same[0].alertname));
  }

  async function loadSparklines() {
    const todo = (runs || []).filter((r) => r.loss_metric &&
      (!sparkCache.has(r.run) || sparkCache.get(r.run).key !== r.last_seen));
    for (const r of todo.slice(0, 40)) {
      if (disposed) return;
      try {
        const data = await series({
          start: r.first_seen, end: Math.max(r.last_seen, r.first_seen + 1), width: 100,
          queries: [{ id: 'loss', expr: r.loss_metric, x: 'time' }],
        });
        const result = data.results[0];
        if (result && !result.error && result.series && result.series.length) {
          sparkCache.set(r.run, { key: r.last_seen, values: result.series[0].last.map(num) });
        }
      } catch (e) {
        sparkCache.set(r.run, { key: r.last_seen, values: [] });
      }
    }
    if (todo.length && !disposed) render();
  }

  let lastBody = null;

  async function load() {
    let body = null;
    try {
      runs = await get('runs');
      body = JSON.stringify(runs);
      loadError = null;
      updated.textContent = `updated ${fmtTime(Date.now() / 1000, true)}`;
    } catch (e) {
      loadError = e.message;
    }
    if (disposed) return;
    // Nothing changed: the table stays as it is, with its focus and hover.
    if (body !== null && body === lastBody) return;
    lastBody = body;
    render();
    loadSparklines();
  }

  load();
  timer = setInterval(load, REFRESH_MS);
  return {
    update(next) {
      params = next.params;
      if (document.activeElement !== filter) filter.value = params.get('q') || '';
      render();
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
    },
  };
}
