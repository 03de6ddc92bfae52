// "/compare?runs=a,b": several runs overlaid by step (?x=step|relative|time) in distinct colours:
// loss, learning rate, both on two axes (the warm-up rebound case), throughput, aligned at each
// run's first event of a kind if asked (?align=restart|epoch|alert); then a table of the runs and
// the hparams that differ between them.
import { get, series, num } from '../api.js';
import { h, fill, statusPill, errorBox } from '../dom.js';
import { fmtNum, fmtStep, fmtDuration } from '../format.js';
import { Chart, PALETTE } from '../chart.js';
import { toDrawables, merge } from '../series.js';
import { roleExpr } from '../roles.js';

export function mount(root, ctx) {
  document.title = 'Compare · Flightdeck';
  let params = ctx.params;
  const head = h('section.page-head', h('h1', 'Compare runs'));
  const controls = h('div.controls');
  const grid = h('div.chart-grid');
  const table = h('div');
  root.append(head, controls, grid, h('h2', 'Runs and hparams'), table);
  let charts = [];
  let disposed = false;

  const names = () => (params.get('runs') || '').split(',').map((s) => s.trim()).filter(Boolean);
  const xMode = () => (['step', 'relative', 'time'].includes(params.get('x')) ? params.get('x') : 'step');
  const smoothing = () => Math.min(0.99, Math.max(0, Number(params.get('smooth') ?? 0.6) || 0));

  function renderControls(all) {
    const u = (k) => {
      const p = new URLSearchParams(params);
      p.set('x', k);
      return `/compare?${p}`;
    };
    const add = h('select', { 'aria-label': 'Add a run', onchange: (e) => e.target.value && ctx.setParams({ runs: [...names(), e.target.value].join(',') }, { push: true }) },
      h('option', { value: '' }, 'add a run…'), all.filter((r) => !names().includes(r.run)).map((r) => h('option', { value: r.run }, r.run)));
    const slider = h('input', { type: 'range', min: 0, max: 0.99, step: 0.01, value: smoothing(), 'aria-label': 'Smoothing', onchange: (e) => ctx.setParams({ smooth: e.target.value }) });
    const align = h('select', { 'aria-label': 'Align at', onchange: (e) => ctx.setParams({ align: e.target.value }) },
      [['', 'no alignment'], ['restart', 'align at restart'], ['epoch', 'align at first epoch'], ['alert', 'align at first alert']].map(([k, label]) =>
        h('option', { value: k, selected: (params.get('align') || '') === k }, label)));
    fill(controls,
      align,
      h('span.control', 'x axis', h('span.seg', ['step', 'relative', 'time'].map((k) => h(`a${xMode() === k ? '.on' : ''}`, { href: u(k) }, k === 'time' ? 'Wall time' : k[0].toUpperCase() + k.slice(1))))),
      h('label.control', 'Smoothing', slider),
      h('span.control', names().map((n, i) => h('span.badge', { style: { background: PALETTE[i % PALETTE.length], color: '#000' } },
        n, ' ', h('button', { type: 'button', 'aria-label': `Remove ${n}`, style: { padding: '0 4px', background: 'none', border: 0, color: '#000' }, onclick: () => ctx.setParams({ runs: names().filter((x) => x !== n).join(',') }, { push: true }) }, '×')))),
      add);
  }

  async function load() {
    charts.forEach((c) => c.dispose());
    charts = [];
    fill(grid);
    fill(table, h('p.muted', 'Loading…'));
    const list = names();
    const all = await get('runs').catch(() => []);
    if (disposed) return;
    renderControls(all);
    if (!list.length) {
      fill(table, h('p.muted', 'Pick runs on the runs page (tick them, then Compare), or add one above.'));
      return;
    }
    const runs = await Promise.all(list.map((n) => get(`runs/${encodeURIComponent(n)}`).catch((e) => ({ run: n, error: e.message }))));
    if (disposed) return;
    const found = runs.filter((r) => !r.error);
    const missing = runs.filter((r) => r.error);
    const mode = xMode();
    const defs = [
      { title: 'Loss', unit: '', robust: true, q: (r) => [{ expr: r.loss_metric || roleExpr('loss', r.run), smooth: true }] },
      { title: 'Learning rate', unit: '', q: (r) => [{ expr: roleExpr('lr', r.run) }] },
      { title: 'Loss and learning rate', unit: '', unit2: '', robust: true, q: (r) => [{ expr: r.loss_metric || roleExpr('loss', r.run), smooth: true, tag: 'loss' }, { expr: roleExpr('lr', r.run), scale: 'y2', tag: 'lr', dash: [6, 4] }] },
      // Many TensorBoard runs log no throughput: an empty panel would only be noise.
      { title: 'Samples per second', unit: '', optional: true, q: (r) => [{ expr: roleExpr('samples', r.run), smooth: true }] },
    ];
    charts = defs.map((d) => new Chart({ title: d.title, unit: d.unit, unit2: d.unit2, robust: d.robust, syncKey: 'compare' }));
    charts.forEach((c) => grid.append(c.el));
    if (!found.length) {
      charts.forEach((c) => c.empty('None of these runs exists.'));
    } else {
      const start = Math.min(...found.map((r) => r.first_seen));
      const end = Math.max(...found.map((r) => r.last_seen), start + 60);
      const queries = [];
      defs.forEach((d, di) => found.forEach((r, ri) => d.q(r).forEach((q, qi) => queries.push({ id: `${di}:${ri}:${qi}`, expr: q.expr, x: mode, run: r.run }))));
      const offsets = await alignments(found, mode);
      try {
        const data = await series({ start, end, width: 800, queries });
        if (disposed) return;
        const byId = new Map(data.results.map((r) => [r.id, r]));
        defs.forEach((d, di) => {
          const parts = [];
          const errors = [];
          found.forEach((r, ri) => d.q(r).forEach((q, qi) => {
            const res = byId.get(`${di}:${ri}:${qi}`);
            if (!res) return;
            if (res.error) {
              errors.push(`${r.run}: ${res.error}`);
              return;
            }
            const colour = PALETTE[list.indexOf(r.run) % PALETTE.length];
            const part = toDrawables(res, { colour, smoothing: q.smooth ? smoothing() : 0, scale: q.scale, label: () => (q.tag ? `${r.run} ${q.tag}` : r.run) });
            if (q.dash) part.lines.forEach((l) => { l.dash = q.dash; });
            const offset = offsets.get(r.run) || 0;
            if (offset) {
              part.lines.forEach((l) => { l.x = l.x.map((x) => x - offset); });
              part.bands.forEach((b) => { b.x = b.x.map((x) => x - offset); });
            }
            parts.push(part);
          }));
          if (errors.length && !parts.length) charts[di].error(errors.join('\n'));
          else charts[di].draw({ xMode: mode, ...merge(...parts) });
          if (d.optional && charts[di].el.dataset.state === 'empty') charts[di].el.hidden = true;
        });
      } catch (e) {
        charts.forEach((c) => c.error(e.message));
      }
    }
    const hp = await get('tensorboard/hparams').catch(() => []);
    if (disposed) return;
    const hparams = new Map(hp.filter((x) => list.includes(x.run)).map((x) => [x.run, x.hparams]));
    const keys = [...new Set([...hparams.values()].flatMap((o) => Object.keys(o)))].sort();
    const differs = (k) => new Set(found.map((r) => JSON.stringify((hparams.get(r.run) || {})[k]))).size > 1;
    fill(table,
      missing.length ? missing.map((m) => errorBox(`${m.run}: ${m.error}`)) : null,
      h('div.table-wrap', h('table', { 'data-table': 'compare' },
        h('thead', h('tr', h('th', ''), found.map((r) => h('th', h('a', { href: `/runs/${encodeURIComponent(r.run)}` }, r.run))))),
        h('tbody',
          h('tr', h('th', 'status'), found.map((r) => h('td', statusPill(r.status)))),
          h('tr', h('th', 'step'), found.map((r) => h('td.num', `${fmtStep(r.step)}${r.max_steps ? ` / ${fmtStep(r.max_steps)}` : ''}`))),
          h('tr', h('th', 'last loss'), found.map((r) => h('td.num', fmtNum(num(r.last && r.last.loss), 4)))),
          h('tr', h('th', 'steps/s'), found.map((r) => h('td.num', fmtNum(num(r.steps_per_second))))),
          h('tr', h('th', 'duration'), found.map((r) => h('td.num', fmtDuration(r.last_seen - r.first_seen)))),
          h('tr', h('th', 'GPUs'), found.map((r) => h('td.num', String((r.gpus || []).length)))),
          keys.map((k) => h(`tr${differs(k) ? '.differs' : ''}`, h('th', k, differs(k) ? h('span.badge.sev-warning', { style: { marginLeft: '6px' } }, 'differs') : null),
            found.map((r) => h('td.mono', String((hparams.get(r.run) || {})[k] ?? '–')))))))));
  }

  /** Per run, how far its x axis moves so that its first ?align event sits at 0. */
  async function alignments(found, mode) {
    const kind = params.get('align');
    const offsets = new Map();
    if (!kind) return offsets;
    if (mode === 'time') {
      controls.append(h('span.muted', 'alignment moves the step and relative axes; wall time stays as it was'));
      return offsets;
    }
    await Promise.all(found.map(async (r) => {
      const events = await get(`runs/${encodeURIComponent(r.run)}/events`, { start: r.first_seen, end: r.last_seen }).catch(() => []);
      const e = events.find((x) => x.kind === kind);
      if (!e) return;
      offsets.set(r.run, mode === 'step' ? (e.step ?? 0) : e.time - r.first_seen);
    }));
    const missing = found.filter((r) => !offsets.has(r.run)).map((r) => r.run);
    if (missing.length) controls.append(h('span.muted', `no ${kind} in ${missing.join(', ')}: not moved`));
    return offsets;
  }

  load();
  return {
    update(next) {
      params = next.params;
      load();
    },
    dispose() {
      disposed = true;
      charts.forEach((c) => c.dispose());
    },
  };
}
