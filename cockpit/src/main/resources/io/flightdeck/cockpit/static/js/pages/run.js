// "/runs/{run}": the run's header, then tabs. The overview holds the five regions (GPU, progress,
// curves, system, network) on one shared x axis (?x=step|relative|time), smoothed with
// TensorBoard's debiased EMA (?smooth=0..0.99, raw faint), cursor and drag-zoom synced across
// charts (?from=&to= unix seconds; double-click resets), the run's events on every chart, and many
// GPUs as a min/median/max band with outliers named (?gpu=host/index drills down to one GPU).
import { get, series, ApiError, num } from '../api.js';
import { h, fill, statusPill, errorBox } from '../dom.js';
import { fmtNum, fmtDuration, fmtTime, fmtStep } from '../format.js';
import { Chart, eventColour, PALETTE } from '../chart.js';
import { toDrawables, merge } from '../series.js';
import { roleExpr, gpuExpr, hostMatcher } from '../roles.js';
import { StepMap } from '../stepmap.js';
import { moversPanel } from '../movers.js';
import { groupEvents, memberLines } from '../events.js';
import * as tabs from './run-tabs.js';

const BAND_ABOVE = 8; // more GPUs than this are drawn as a band with outliers
const REFRESH_MS = 30000;
const TABS = [['overview', 'Overview'], ['scalars', 'All scalars'], ['histograms', 'Histograms'],
  ['text', 'Text'], ['images', 'Images'], ['hparams', 'HParams'], ['events', 'Events']];

/**
 * The overview's charts, region by region. Each query: {expr, label?, scale?, smooth?, aggregate?};
 * `aggregate: 'auto'` lets the server draw many ranks, hosts or NICs of one metric as a band with
 * the outliers named, so a 64-rank loss arrives as three lines, not sixty-four.
 */
function chartDefs(run, params) {
  const gpu = params.get('gpu');
  const gpus = run.gpus || [];
  const band = !gpu && gpus.length > BAND_ABOVE;
  const g = (metric) => gpuExpr(metric, gpus, gpu);
  const hm = hostMatcher(run.hosts);
  const hostExpr = (fn) => (hm ? fn(hm) : null);
  const lossExpr = run.loss_metric || roleExpr('loss', run.run);
  const gpuChart = (title, metric, unit, extra = {}) => ({
    region: 'gpu', title, unit, ...extra,
    queries: [{ expr: g(metric), aggregate: band ? 'band' : 'none' }],
    missing: gpus.length ? null : 'No GPUs are attributed to this run.',
  });
  return [
    gpuChart('GPU utilisation', 'DCGM_FI_DEV_GPU_UTIL', '%'),
    gpuChart('GPU memory used', 'DCGM_FI_DEV_FB_USED', 'MiB'),
    gpuChart('GPU temperature', 'DCGM_FI_DEV_GPU_TEMP', '°C'),
    gpuChart('GPU power', 'DCGM_FI_DEV_POWER_USAGE', 'W'),
    gpuChart('SM active', 'DCGM_FI_PROF_SM_ACTIVE', 'ratio', { optional: true }),
    gpuChart('SM clock', 'DCGM_FI_DEV_SM_CLOCK', 'MHz', { optional: true }),
    { region: 'progress', title: 'Step progress', stepmap: true },
    { region: 'progress', title: 'Samples per second', unit: '', queries: [{ expr: roleExpr('samples', run.run), smooth: true, aggregate: 'auto' }] },
    { region: 'progress', title: 'Tokens per second', unit: '', optional: true, queries: [{ expr: roleExpr('tokens', run.run), smooth: true, aggregate: 'auto' }] },
    { region: 'curves', title: 'Loss and learning rate', unit: '', unit2: '', robust: params.get('outliers') !== 'show',
      queries: [{ expr: lossExpr, smooth: true, labelPrefix: 'loss', aggregate: 'auto' }, { expr: roleExpr('lr', run.run), scale: 'y2', labelPrefix: 'learning rate', colourIndex: 1, aggregate: 'auto' }] },
    { region: 'curves', title: 'Gradient norm', unit: '', optional: true, robust: params.get('outliers') !== 'show', queries: [{ expr: roleExpr('gradNorm', run.run), smooth: true, colourIndex: 4, aggregate: 'auto' }] },
    { region: 'curves', title: 'Eval metrics', unit: '', optional: true, queries: [{ expr: roleExpr('eval', run.run), colourIndex: 2 }] },
    { region: 'system', title: 'CPU utilisation', unit: '%', missing: hm ? null : 'No hosts are attributed to this run.',
      queries: [{ expr: hostExpr((m) => `100 * (1 - avg by (instance) (rate(node_cpu_seconds_total{mode="idle",${m}}[2m])))`), aggregate: 'auto' }] },
    { region: 'system', title: 'Host memory used', unit: 'bytes', missing: hm ? null : 'No hosts are attributed to this run.',
      queries: [{ expr: hostExpr((m) => `node_memory_MemTotal_bytes{${m}} - node_memory_MemAvailable_bytes{${m}}`), aggregate: 'auto' }] },
    { region: 'system', title: 'Disk I/O', unit: 'bytes/s', missing: hm ? null : 'No hosts are attributed to this run.',
      queries: [
        { expr: hostExpr((m) => `sum by (instance) (rate(node_disk_read_bytes_total{${m}}[2m]))`), labelPrefix: 'read', aggregate: 'auto' },
        { expr: hostExpr((m) => `sum by (instance) (rate(node_disk_written_bytes_total{${m}}[2m]))`), labelPrefix: 'write', colourIndex: 3, aggregate: 'auto' }] },
    { region: 'network', title: 'Network receive', unit: 'bytes/s', missing: hm ? null : 'No hosts are attributed to this run.',
      queries: [{ expr: hostExpr((m) => `rate(node_network_receive_bytes_total{device!~"lo|veth.*|docker.*|cali.*",${m}}[2m])`), aggregate: 'auto' }] },
    { region: 'network', title: 'Network transmit', unit: 'bytes/s', missing: hm ? null : 'No hosts are attributed to this run.',
      queries: [{ expr: hostExpr((m) => `rate(node_network_transmit_bytes_total{device!~"lo|veth.*|docker.*|cali.*",${m}}[2m])`), aggregate: 'auto' }] },
  ];
}

const REGIONS = [
  ['gpu', 'GPU state', 'memory, utilisation, temperature, power and clocks of the run\u2019s GPUs'],
  ['progress', 'Training progress', 'step, throughput, ETA'],
  ['curves', 'Performance curves', 'loss and learning rate on two axes, gradient norm, eval'],
  ['system', 'System resources', 'CPU, memory and disk of the run\u2019s hosts'],
  ['network', 'Network', 'receive and transmit per NIC'],
];

/** Where an alert points: host and GPU from its labels, else its instance. */
function where(labels) {
  const l = labels || {};
  const host = l.Hostname || l.host || (l.instance ? l.instance.replace(/:\d+$/, '') : '');
  return l.gpu !== undefined ? `${host}/gpu${l.gpu}` : host;
}

export function mount(root, ctx) {
  const runName = ctx.path[0];
  document.title = `${runName} · Flightdeck`;
  let params = ctx.params;
  let run = null;
  let stepmap = new StepMap(null);
  let events = [];
  let laneExpanded = false;
  let charts = [];
  let tabView = null;
  let disposed = false;
  let timer = null;
  let controller = null;
  const header = h('section.run-header', h('div.run-title', h('h1', runName), h('span.muted', 'loading…')));
  const controls = h('div.controls');
  const tabBar = h('nav.tabs', { 'aria-label': 'Run views' });
  const body = h('div.run-body');
  const moversBox = h('div');
  root.append(header, tabBar, controls, body);

  // A stalled run opens on wall time, where the hang is a flat step line and idle GPUs; the
  // step axis would fold it into a single step.
  const xMode = () => {
    if (['step', 'relative', 'time'].includes(params.get('x'))) return params.get('x');
    return run && run.status === 'stalled' ? 'time' : 'step';
  };
  const smoothing = () => {
    const s = Number(params.get('smooth') ?? 0.6);
    return Number.isFinite(s) ? Math.min(0.99, Math.max(0, s)) : 0.6;
  };
  const tab = () => (TABS.some(([k]) => k === params.get('tab')) ? params.get('tab') : 'overview');

  /** The time range drawn: the zoom, else the whole run (to now while it runs). */
  function range() {
    const from = Number(params.get('from'));
    const to = Number(params.get('to'));
    if (params.get('from') && params.get('to') && to > from) return [from, to];
    const end = run.status === 'running' || run.status === 'stalled' ? Math.max(run.last_seen, Date.now() / 1000) : run.last_seen;
    return [run.first_seen, Math.max(end, run.first_seen + 60)];
  }

  function toX(t, mode) {
    if (t === null || t === undefined) return null;
    if (mode === 'time') return t;
    if (mode === 'relative') return t - run.first_seen;
    return stepmap.stepAt(t);
  }

  function zoom(min, max) {
    if (min === null) {
      ctx.setParams({ from: null, to: null }, { push: true });
      return;
    }
    const mode = xMode();
    let from;
    let to;
    if (mode === 'time') [from, to] = [min, max];
    else if (mode === 'relative') [from, to] = [min + run.first_seen, max + run.first_seen];
    else {
      const a = stepmap.timesOf(Math.max(0, min));
      const b = stepmap.timesOf(max);
      if (!a) return;
      from = a[0];
      to = b ? b[1] : range()[1];
    }
    ctx.setParams({ from: Math.floor(from), to: Math.ceil(to) }, { push: true });
  }

  function renderHeader() {
    const firing = (run.alerts || []).filter((a) => a.state === 'firing');
    const progress = run.max_steps ? Math.min(1, (run.step || 0) / run.max_steps) : null;
    const stat = (k, v, title) => h('div.stat', { title }, h('span.k', k), h('span.v', v));
    const eta = run.eta_seconds !== null && run.eta_seconds !== undefined && run.status === 'running'
      ? [fmtDuration(run.eta_seconds), run.eta_low_seconds != null && run.eta_high_seconds != null ? h('span.range', ` ${fmtDuration(run.eta_low_seconds)}–${fmtDuration(run.eta_high_seconds)}`) : null]
      : (run.status === 'stalled' ? 'stalled' : '–');
    fill(header,
      h('div.run-title', h('h1', run.run), statusPill(run.status),
        h('span.muted', `${(run.sources || []).join(' · ')} · ${(run.hosts || []).join(', ') || 'no hosts'} · ${(run.gpus || []).length} GPUs`)),
      h('div.muted', { style: { textAlign: 'right' } }, `started ${fmtTime(run.first_seen)} · last seen ${fmtTime(run.last_seen, true)}`),
      h('div.run-stats',
        stat('Step', `${fmtStep(run.step)}${run.max_steps ? ` / ${fmtStep(run.max_steps)}` : ''}`),
        run.epoch !== null && run.epoch !== undefined ? stat('Epoch', fmtNum(run.epoch)) : null,
        stat('Steps/s', fmtNum(run.steps_per_second)),
        stat('Samples/s', fmtNum(num(run.last && run.last.samples_per_second))),
        stat('Loss', fmtNum(num(run.last && run.last.loss), 4)),
        stat('LR', fmtNum(num(run.last && run.last.learning_rate))),
        stat('ETA', eta, 'remaining steps at the recent step rate, with its p10–p90 range'),
        stat('Duration', fmtDuration(run.last_seen - run.first_seen))),
      progress !== null ? h('div.progress', h('div.bar', h('div.fill', { class: `fill-${run.status}`, style: { width: `${(progress * 100).toFixed(1)}%` } })), h('span.progress-text', `${(progress * 100).toFixed(1)}%`)) : h('span'),
      statusBanner(),
      firing.length ? h('div.run-alerts', firingByName(firing).map((g) => h(`div.run-alert.sev-${g.severity || 'warning'}`, { role: 'alert', dataset: { alert: g.name, count: g.alerts.length } },
        h('strong', g.name), g.alerts.length > 1 ? ` \u00d7${g.alerts.length}` : '', ' ', g.text,
        h('span.muted', ` since ${fmtTime(g.since, true)}`)))) : null);
  }

  /** Firing alerts one line per name: sixteen ranks' identical alerts are one line with ×16. */
  function firingByName(firing) {
    const groups = new Map();
    for (const a of firing) {
      if (!groups.has(a.alertname)) groups.set(a.alertname, { name: a.alertname, severity: a.severity, alerts: [] });
      groups.get(a.alertname).alerts.push(a);
    }
    return [...groups.values()].map((g) => {
      const one = g.alerts[0];
      const hosts = [...new Set(g.alerts.map((a) => where(a.labels)).filter(Boolean))];
      const summary = one.annotations && (one.annotations.summary || one.annotations.description);
      return { ...g, since: Math.min(...g.alerts.map((a) => a.active_at)),
        text: g.alerts.length === 1 && summary ? summary : (hosts.length > 4 ? `on ${hosts.length} hosts/GPUs` : (hosts.length ? `on ${hosts.sort().join(', ')}` : '')) };
    });
  }

  function lossIsBad() {
    const loss = num(run.last && run.last.loss);
    return loss !== null && !Number.isFinite(loss);
  }

  /** What a stalled or crashed run is doing, in words, above everything else. */
  function statusBanner() {
    if (run.status === 'stalled') {
      const since = stepmap.lastProgress();
      return h('div.run-alerts', h('div.run-alert.sev-warning', { role: 'alert', 'data-banner': 'stalled' },
        h('strong', 'Stalled: '), `the step has stayed at ${fmtStep(run.step)}`,
        since ? ` since ${fmtTime(since, true)} (${fmtDuration(Date.now() / 1000 - since)})` : '',
        ' while the run still reports. A hung rank or a lost GPU is the usual cause: see the GPU state below.'));
    }
    if (run.status === 'crashed') {
      return h('div.run-alerts', h('div.run-alert.sev-critical', { role: 'alert', 'data-banner': 'crashed' },
        h('strong', 'Crashed: '), `last seen ${fmtTime(run.last_seen, true)} (${fmtDuration(Date.now() / 1000 - run.last_seen)} ago) at step ${fmtStep(run.step)}`,
        lossIsBad() ? `; its last loss was ${fmtNum(num(run.last.loss))}` : '', '.'));
    }
    return null;
  }

  function renderTabs() {
    const url = (k) => {
      const u = new URLSearchParams(params);
      if (k === 'overview') u.delete('tab'); else u.set('tab', k);
      const qs = u.toString();
      return `/runs/${encodeURIComponent(runName)}${qs ? `?${qs}` : ''}`;
    };
    fill(tabBar, TABS.map(([k, label]) => h(`a${tab() === k ? '.on' : ''}`, { href: url(k), 'aria-current': tab() === k ? 'page' : null }, label)));
  }

  function renderControls() {
    if (!['overview', 'scalars'].includes(tab())) {
      fill(controls);
      return;
    }
    const mode = xMode();
    const link = (k, label) => {
      const u = new URLSearchParams(params);
      u.set('x', k);
      u.delete('from'); u.delete('to');
      return h(`a${mode === k ? '.on' : ''}`, { href: `/runs/${encodeURIComponent(runName)}?${u}`, 'aria-pressed': String(mode === k) }, label);
    };
    const slider = h('input', { type: 'range', min: 0, max: 0.99, step: 0.01, value: smoothing(), 'aria-label': 'Smoothing' });
    const sliderValue = h('span.num', smoothing().toFixed(2));
    slider.addEventListener('input', () => { sliderValue.textContent = Number(slider.value).toFixed(2); });
    slider.addEventListener('change', () => ctx.setParams({ smooth: slider.value }));
    const gpuSelect = h('select', { 'aria-label': 'GPU', onchange: (e) => ctx.setParams({ gpu: e.target.value }) },
      h('option', { value: '' }, (run.gpus || []).length > BAND_ABOVE ? 'all GPUs (band)' : 'all GPUs'),
      (run.gpus || []).map((g) => h('option', { value: `${g.host}/${g.gpu}`, selected: params.get('gpu') === `${g.host}/${g.gpu}` }, `${g.host}/gpu${g.gpu}`)));
    const zoomed = params.get('from') && params.get('to');
    fill(controls,
      h('span.control', 'x axis', h('span.seg', link('step', 'Step'), link('relative', 'Relative'), link('time', 'Wall time'))),
      h('label.control', 'Smoothing', slider, sliderValue),
      h('label.control', h('input', { type: 'checkbox', checked: params.get('outliers') !== 'show', onchange: (e) => ctx.setParams({ outliers: e.target.checked ? null : 'show' }) }), 'Ignore outliers'),
      tab() === 'overview' ? h('label.control', 'GPUs', gpuSelect) : null,
      zoomed ? h('button', { type: 'button', onclick: () => zoom(null, null) }, `Reset zoom (${fmtTime(Number(params.get('from')))} – ${fmtTime(Number(params.get('to')))})`) : h('span.muted', { style: { fontSize: '12px' } }, 'drag across a chart to zoom, double-click to reset'));
  }

  /** Close events of one kind and title as one group; "close" scales with the range drawn. */
  function eventGroups() {
    const [start, end] = range();
    return groupEvents(events, Math.max(1, (end - start) / 100));
  }

  function eventLane() {
    if (!events.length) return h('div.event-lane.muted', 'No events in this range.');
    // Epoch boundaries are routine: the charts draw them dashed; the lane counts them in one chip.
    const all = eventGroups();
    const epochs = all.filter((g) => g.kind === 'epoch');
    // A detection's own alert (the training-detections pack) is the same incident: one chip, the
    // detection's, which says that its alert fired.
    const detected = new Set(all.filter((g) => g.kind !== 'alert').map((g) => g.kind));
    const isDetectionAlert = (g) => g.kind === 'alert' && g.members.every((e) => e.labels && detected.has(e.labels.kind));
    const alerted = new Map(all.filter(isDetectionAlert).map((g) => [g.members[0].labels.kind, g.title]));
    const groups = all.filter((g) => g.kind !== 'epoch' && !isDetectionAlert(g));
    // Newest first: at 3 am what just happened matters most. Past three rows the lane folds, so
    // the charts stay in view.
    // Every group is a chip (the newest 300); CSS folds the lane to three rows until "Show all".
    const shown = groups.slice(-300).reverse();
    const detail = h('div.event-detail', { hidden: true, 'aria-live': 'polite' });
    const chip = (g) => {
      const n = g.members.length;
      const where = g.places.length <= 3 ? g.places.join(', ') : g.hosts.join(', ');
      const steps = g.step == null ? '' : (Math.round(g.stepLast) > Math.round(g.step) ? ` @${fmtStep(g.step)}–${fmtStep(g.stepLast)}` : ` @${fmtStep(g.step)}`);
      const lines = memberLines(g, fmtTime, fmtStep);
      return h('button.event-chip', {
        type: 'button',
        style: { borderColor: eventColour(g.kind), color: eventColour(g.kind) },
        title: `${g.title}\n${lines.slice(0, 20).join('\n')}${lines.length > 20 ? `\n… ${lines.length - 20} more` : ''}`,
        'aria-expanded': 'false',
        dataset: { eventKind: g.kind, eventCount: n },
        onclick: (ev) => {
          const open = ev.currentTarget.getAttribute('aria-expanded') === 'true';
          ev.currentTarget.parentElement.querySelectorAll('.event-chip').forEach((c) => c.setAttribute('aria-expanded', 'false'));
          if (open) {
            detail.hidden = true;
            return;
          }
          ev.currentTarget.setAttribute('aria-expanded', 'true');
          fill(detail, h('strong', `${g.kind}: ${g.title}`), h('span.muted', ` ${n} event${n > 1 ? 's' : ''} from ${fmtTime(g.time, true)}${g.end ? ` until ${fmtTime(g.end, true)}` : ''}`),
            h('ul', lines.map((l) => h('li', l))));
          detail.hidden = false;
        },
      }, h('span.muted', fmtTime(g.time)), ` ${g.kind}${steps} `, h('strong', g.title), n > 1 ? ` \u00d7${n}` : '', where ? ` \u00b7 ${where}` : '',
      alerted.has(g.kind) ? h('span.event-alerted', { title: `alert ${alerted.get(g.kind)} fired` }, ` \u00b7 alert ${alerted.get(g.kind)}`) : null);
    };
    const lane = h(`div.event-lane${laneExpanded ? '' : '.folded'}`, { 'aria-label': 'Events, newest first', id: 'event-lane' },
      shown.map(chip), groups.length > shown.length ? h('span.muted', `${groups.length - shown.length} earlier… `) : null, epochs.length ? h('span.event-chip.epochs', { title: epochs.map((g) => `${fmtTime(g.time, true)} ${g.title}${g.step != null ? ` at step ${fmtStep(g.step)}` : ''}`).join('\n') },
        `${epochs.length} epoch boundar${epochs.length > 1 ? 'ies' : 'y'} (dashed lines)`) : null);
    const toggle = h('button.lane-toggle', { type: 'button', hidden: true, 'aria-controls': 'event-lane', 'aria-expanded': String(laneExpanded),
      onclick: () => {
        laneExpanded = !laneExpanded;
        lane.classList.toggle('folded', !laneExpanded);
        toggle.setAttribute('aria-expanded', String(laneExpanded));
        toggle.textContent = laneExpanded ? 'Show fewer events' : `Show all ${shown.length} events`;
      } }, laneExpanded ? 'Show fewer events' : `Show all ${shown.length} events`);
    // Whether the lane overflows its folded height is known once it is laid out.
    requestAnimationFrame(() => { toggle.hidden = !laneExpanded && lane.scrollHeight <= lane.clientHeight + 2; });
    return h('div', lane, toggle, detail);
  }

  function buildOverview() {
    charts.forEach((c) => c.chart.dispose());
    charts = [];
    const defs = chartDefs(run, params);
    const syncKey = `run-${runName}`;
    const regions = REGIONS.map(([key, title, sub]) => {
      const grid = h('div.chart-grid');
      const mine = defs.filter((d) => d.region === key);
      // A region with nothing to look at (no GPUs or hosts known) says so once, not per chart.
      if (mine.length && mine.every((d) => d.missing)) {
        return h('section.region', { dataset: { region: key } }, h('h2', title, h('span.muted', sub)),
          h('p.muted.region-empty', mine[0].missing));
      }
      for (const def of mine) {
        const target = (def.queries || []).find((q) => q.expr);
        // "What moved with this?" over the window drawn; ?moved=<chart> keeps it in the URL.
        const actions = target ? h('button.chart-action', {
          type: 'button',
          title: 'Rank every series of this run by how it moved with this chart in the window drawn (drag across a chart to narrow it)',
          'aria-label': `What moved with ${def.title}?`,
          onclick: () => ctx.setParams({ moved: def.title }, { push: true }),
        }, 'What moved?') : null;
        const chart = new Chart({ title: def.title, unit: def.unit, unit2: def.unit2, syncKey, onZoom: zoom, robust: def.robust, actions });
        charts.push({ def, chart });
        grid.append(chart.el);
      }
      return h('section.region', { dataset: { region: key } }, h('h2', title, h('span.muted', sub)), grid);
    });
    fill(body, h('div.lane-wrap', eventLane()), moversBox, regions);
    showMovers();
  }

  /** The "what moved" panel of ?moved=<chart title>, over the window drawn. */
  function showMovers() {
    const title = params.get('moved');
    const def = title ? chartDefs(run, params).find((d) => d.title === title) : null;
    const target = def && (def.queries || []).find((q) => q.expr);
    if (!target) {
      delete moversBox.dataset.shown;
      fill(moversBox);
      return;
    }
    const [start, end] = range();
    if (moversBox.dataset.shown === `${title}\u0000${start}\u0000${end}`) return;
    moversBox.dataset.shown = `${title}\u0000${start}\u0000${end}`;
    fill(moversBox, moversPanel({
      run: runName, title, expr: target.expr, start, end,
      onClose: () => { delete moversBox.dataset.shown; ctx.setParams({ moved: null }, { push: true }); },
    }));
    moversBox.scrollIntoView({ block: 'nearest' });
  }

  async function loadOverview() {
    if (controller) controller.abort();
    controller = new AbortController();
    const signal = controller.signal;
    const mode = xMode();
    const [start, end] = range();
    charts.forEach((c) => c.chart.loading());
    performance.mark('flightdeck:overview-start');
    try {
      // The series, the step map and the events are asked for at once: the server maps the
      // series onto the step axis itself, and the events (the detectors read every rank) often
      // answer last, so the charts are drawn without them first and again once they arrive.
      const queries = [];
      charts.forEach(({ def }, ci) => (def.queries || []).forEach((q, qi) => {
        if (q.expr) queries.push({ id: `${ci}:${qi}`, expr: q.expr, x: mode, run: runName, aggregate: q.aggregate || 'none' });
      }));
      // Buckets for half the window's width (a chart is at most that wide): read from the window,
      // not the page, so the request goes out before the browser lays out the charts just built.
      const width = Math.max(200, Math.min(1000, Math.round((window.innerWidth || 1200) / 2)));
      const seriesAnswer = queries.length
        ? series({ start, end, width, queries }, signal).then((data) => ({ data }), (e) => ({ error: e }))
        : Promise.resolve({ data: { results: [] } });
      const stepmapAnswer = get(`runs/${encodeURIComponent(runName)}/stepmap`, { start, end }, signal).catch((e) => ({ error: e }));
      const eventsAnswer = get(`runs/${encodeURIComponent(runName)}/events`, { start, end }, signal).catch((e) => ({ error: e }));
      let eventsIn = false;
      eventsAnswer.then(() => { eventsIn = true; });

      const [sm, answer] = await Promise.all([stepmapAnswer, seriesAnswer]);
      if (signal.aborted) return;
      stepmap = new StepMap(sm.error ? null : sm);
      if (run.status === 'stalled') renderHeader();
      if (answer.error && answer.error.name === 'AbortError') return;
      const failure = answer.error ? answer.error.message : null;
      const results = answer.error ? new Map() : new Map(answer.data.results.map((r) => [r.id, r]));
      const drawAll = () => drawOverview(mode, start, end, sm, results, failure);
      if (eventsIn) showEvents(await eventsAnswer);
      drawAll();
      // For benchmarks: from the first request to the last chart drawn.
      performance.measure('flightdeck:overview', 'flightdeck:overview-start');
      if (!eventsIn) {
        const ev = await eventsAnswer;
        if (signal.aborted) return;
        showEvents(ev);
        drawAll();
      }
    } catch (e) {
      if (e.name !== 'AbortError') charts.forEach(({ chart }) => chart.error(e.message));
    }
  }

  /** The run's events in the lane above the charts. */
  function showEvents(ev) {
    events = ev.error ? [] : ev;
    const lane = body.querySelector('.lane-wrap');
    if (lane) fill(lane, ev.error ? errorBox(`Events: ${ev.error.message}`) : eventLane());
  }

  /** Every chart of the overview from the series answer, with the events known so far. */
  function drawOverview(mode, start, end, sm, results, failure) {
    // One marker per group: sixteen ranks' identical lines would read as one thick line anyway.
    const chartEvents = eventGroups().map((g) => ({ kind: g.kind, title: g.title, x: toX(g.time, mode), x2: toX(g.end, mode) }));
    const xRange = mode === 'step' ? null : [toX(start, mode), toX(end, mode)];
    charts.forEach(({ def, chart }, ci) => {
      if (def.stepmap) {
        drawStepProgress(chart, mode, chartEvents, sm.error);
        return;
      }
      if (def.missing) {
        chart.empty(def.missing);
        return;
      }
      if (failure) {
        chart.error(failure);
        return;
      }
      const parts = [];
      let error = null;
      (def.queries || []).forEach((q, qi) => {
        const r = results.get(`${ci}:${qi}`);
        if (!r) return;
        if (r.error) error = r.error;
        else parts.push(toDrawables(r, { smoothing: q.smooth ? smoothing() : 0, scale: q.scale, labelPrefix: q.labelPrefix, colourIndex: q.colourIndex, envelopes: true }));
      });
      if (error) {
        chart.error(error);
        return;
      }
      const d = merge(...parts);
      chart.setSubtitle(def.queries.length === 1 ? def.queries[0].expr : '');
      chart.draw({ xMode: mode, ...d, events: chartEvents, xRange });
      if (def.optional && chart.el.dataset.state === 'empty') chart.el.hidden = true;
    });
  }

  function drawStepProgress(chart, mode, chartEvents, error) {
    if (error) {
      chart.error(error.message);
      return;
    }
    const lines = stepmap.segments.map((pts, i) => {
      const label = stepmap.segments.length > 1 ? `segment ${i + 1}` : 'step';
      if (mode === 'step') {
        return { label: `${label} elapsed`, colour: PALETTE[i % PALETTE.length], x: pts.map((p) => p[1]), y: pts.map((p) => p[0] - run.first_seen), width: 2 };
      }
      return { label, colour: PALETTE[i % PALETTE.length], x: pts.map((p) => toX(p[0], mode)), y: pts.map((p) => p[1]), width: 2 };
    });
    chart.opts.unit = mode === 'step' ? 's' : '';
    chart.setSubtitle(mode === 'step' ? 'time since start at each step: a stall is a vertical rise' : 'step over time: a stall is a flat line, a restart a drop');
    const [start, end] = range();
    chart.draw({ xMode: mode, lines, events: chartEvents, xRange: mode === 'step' ? null : [toX(start, mode), toX(end, mode)] });
  }

  function renderBody() {
    if (tabView && tabView.dispose) tabView.dispose();
    tabView = null;
    charts.forEach((c) => c.chart.dispose());
    charts = [];
    renderTabs();
    renderControls();
    if (tab() === 'overview') {
      buildOverview();
      loadOverview();
    } else {
      fill(body);
      tabView = tabs.mount(tab(), body, { run, params, xMode: xMode(), smoothing: smoothing(), range: range(), stepmapOf: () => stepmap, setParams: ctx.setParams, zoom });
    }
  }

  async function loadRun(first) {
    try {
      run = await get(`runs/${encodeURIComponent(runName)}`);
    } catch (e) {
      if (disposed) return;
      if (first) {
        if (e instanceof ApiError && e.status === 404) {
          document.body.dataset.page = 'run-not-found';
          fill(root, h('section.not-found', { 'data-page': 'run-not-found' },
            h('h1', `Run \u201c${runName}\u201d not found`),
            h('p', e.message),
            h('p.muted', 'No series carries this run label in the stored data. It may be misspelt, or its data may have aged out of retention.'),
            h('p', h('a', { href: '/' }, 'See every run'))));
        } else {
          fill(root, errorBox(`Cannot load run ${runName}: ${e.message}`));
        }
      }
      return;
    }
    if (disposed) return;
    renderHeader();
    if (first) renderBody();
  }

  loadRun(true);
  timer = setInterval(async () => {
    if (!run) return;
    await loadRun(false);
    const live = run && (run.status === 'running' || run.status === 'stalled');
    if (live && tab() === 'overview' && !params.get('from') && !document.hidden) loadOverview();
  }, REFRESH_MS);

  return {
    update(next) {
      const before = params;
      params = next.params;
      if (!run) return;
      const changed = (k) => (before.get(k) || '') !== (params.get(k) || '');
      if (['tab', 'x', 'smooth', 'from', 'to', 'gpu', 'outliers'].some(changed)) renderBody();
      else if (changed('moved')) showMovers();
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
      if (controller) controller.abort();
      charts.forEach((c) => c.chart.dispose());
      if (tabView && tabView.dispose) tabView.dispose();
    },
  };
}
