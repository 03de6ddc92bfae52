// "/cluster": every node x GPU as a grid coloured by ?metric=util|temp|mem|power, with XID,
// lost-GPU and throttling marks and the run that owns each GPU (click through to it), and the
// metric across the whole cluster over the hour before as a band with its outliers named.
// ?at=<unix s> replays the grid at a past moment (the scrubber covers the last 6 hours).
import { get, series, num } from '../api.js';
import { h, fill, errorBox } from '../dom.js';
import { fmtUnit, fmtTime, fmtDuration } from '../format.js';
import { Chart } from '../chart.js';
import { toDrawables } from '../series.js';

// Each metric's ramp puts red only where the value is a problem: a hot GPU or a full memory is
// red, a busy GPU is green and an idle one dim.
const COOL = ['#1a2b45', '#1f6feb'];
const METRICS = {
  util: { label: 'Utilisation', expr: 'DCGM_FI_DEV_GPU_UTIL', unit: '%', lo: 0, hi: 100, ramp: ['#2a2f3a', '#1f6feb', '#2ea043'] },
  temp: { label: 'Temperature', expr: 'DCGM_FI_DEV_GPU_TEMP', unit: '°C', lo: 30, hi: 90, ramp: [...COOL, '#2ea043', '#c69026', '#da3633'] },
  mem: { label: 'Memory used', expr: '100 * DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE)', unit: '%', lo: 0, hi: 100, ramp: [...COOL, '#1f6feb', '#2ea043', '#c69026', '#da3633'] },
  power: { label: 'Power', expr: 'DCGM_FI_DEV_POWER_USAGE', unit: 'W', lo: 0, hi: 700, ramp: [...COOL, '#8957e5'] },
};
const LOST_WINDOW = '1h';

function colour(v, lo, hi, ramp) {
  const stops = ramp.map((c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)));
  const t = Math.max(0, Math.min(1, (v - lo) / (hi - lo))) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(t));
  const f = t - i;
  const c = stops[i].map((a, k) => Math.round(a + (stops[i + 1][k] - a) * f));
  return `rgb(${c.join(',')})`;
}

const hostOf = (m) => m.Hostname || (m.instance || '').replace(/:\d+$/, '') || '?';
const keyOf = (m) => `${hostOf(m)}/${m.gpu}`;

export function mount(root, ctx) {
  document.title = 'Cluster · Flightdeck';
  let params = ctx.params;
  const picker = h('span.seg', { role: 'group', 'aria-label': 'Colour by' });
  const grid = h('div.cluster-grid', h('p.muted', 'Loading GPUs…'));
  const chart = new Chart({ title: 'Cluster utilisation', unit: '%', height: 220 });
  const stamp = h('span.muted.updated');
  const hourHeading = h('h2', 'Over the last hour');
  const SCRUB = 6 * 3600;
  const scrubber = h('input', { type: 'range', min: -SCRUB, max: 0, step: 60, value: 0, 'aria-label': 'Replay the grid at an earlier time', style: { width: '260px' } });
  const live = h('button', { type: 'button', onclick: () => ctx.setParams({ at: null }) }, 'Now');
  scrubber.addEventListener('change', () => {
    const offset = Number(scrubber.value);
    ctx.setParams({ at: offset === 0 ? null : Math.round(Date.now() / 1000 + offset) });
  });
  root.append(h('section.page-head', h('h1', 'Cluster'), stamp),
    h('div.toolbar', h('span.control', 'Colour by'), picker, h('span.legend-scale', h('span.lo'), h('span.ramp'), h('span.hi')),
      h('label.control', { style: { marginLeft: 'auto' } }, 'Replay', scrubber), live),
    grid, hourHeading, chart.el);
  let timer = null;
  let disposed = false;

  const metricKey = () => (METRICS[params.get('metric')] ? params.get('metric') : 'util');

  async function load() {
    const key = metricKey();
    const m = METRICS[key];
    const atParam = params.get('at') ? `&at=${params.get('at')}` : '';
    fill(picker, Object.entries(METRICS).map(([k, v]) => h(`a${k === key ? '.on' : ''}`, { href: `/cluster?metric=${k}${atParam}`, 'aria-pressed': String(k === key) }, v.label)));
    const legend = root.querySelector('.legend-scale');
    legend.querySelector('.lo').textContent = fmtUnit(m.lo, m.unit);
    legend.querySelector('.hi').textContent = fmtUnit(m.hi, m.unit);
    legend.querySelector('.ramp').style.background = `linear-gradient(90deg, ${m.ramp.join(', ')})`;
    const at = Number(params.get('at'));
    const now = at > 0 ? at : Date.now() / 1000;
    scrubber.value = String(at > 0 ? Math.max(-SCRUB, Math.round(at - Date.now() / 1000)) : 0);
    live.disabled = !(at > 0);
    try {
      const seen = await get('query', { query: `timestamp(last_over_time(DCGM_FI_DEV_GPU_UTIL[${LOST_WINDOW}]))`, time: now });
      // The grid shows the cluster's freshest moment: a scrape that runs a little late must not
      // blank every cell (the lookback-delta can be shorter than the delay, as in the fast demo).
      const freshest = Math.max(...seen.result.map((s) => num(s.value[1])).filter((t) => t !== null));
      const valueTime = Number.isFinite(freshest) ? Math.min(now, freshest) : now;
      const [current, xid, throttle, unhealthy, runs] = await Promise.all([
        get('query', { query: m.expr, time: valueTime }),
        get('query', { query: `max_over_time(DCGM_FI_DEV_XID_ERRORS[${LOST_WINDOW}]) > 0`, time: now }),
        get('query', { query: '(DCGM_FI_DEV_CLOCK_THROTTLE_REASONS or DCGM_FI_DEV_CLOCKS_EVENT_REASONS) > 1', time: valueTime }),
        // The agent's own verdict: its last health report says the GPU is gone.
        get('query', { query: `last_over_time(flightdeck_gpu_healthy[${LOST_WINDOW}]) == 0`, time: now }),
        get('runs').catch(() => []),
      ]);
      if (disposed) return;
      const owners = new Map();
      for (const r of runs) for (const g of r.gpus || []) {
        const k = `${g.host}/${g.gpu}`;
        if (!owners.has(k) || r.status === 'running') owners.set(k, r.run);
      }
      const cells = new Map();
      const cell = (metric) => {
        const k = keyOf(metric);
        if (!cells.has(k)) cells.set(k, { host: hostOf(metric), gpu: metric.gpu, value: null, lastSeen: null, xid: null, throttled: false, unhealthy: null });
        return cells.get(k);
      };
      seen.result.forEach((s) => { cell(s.metric).lastSeen = num(s.value[1]); });
      current.result.forEach((s) => { if (s.metric.gpu !== undefined) cell(s.metric).value = num(s.value[1]); });
      xid.result.forEach((s) => { cell(s.metric).xid = num(s.value[1]); });
      throttle.result.forEach((s) => { cell(s.metric).throttled = true; });
      unhealthy.result.forEach((s) => { if (s.metric.gpu !== undefined) cell(s.metric).unhealthy = s.metric.reason || 'unhealthy'; });
      // A GPU silent while the rest of the cluster reports is lost (so are a dead node's GPUs);
      // when nothing reports any more (collection stopped, a demo that has ended) the data is
      // stale, not every GPU lost.
      const silent = (c) => c.value === null || (c.lastSeen !== null && now - c.lastSeen > 120);
      const anyReporting = [...cells.values()].some((c) => !silent(c));
      for (const c of cells.values()) {
        c.lost = c.unhealthy !== null || (silent(c) && (anyReporting || c.xid === 79));
        c.stale = silent(c) && !c.lost;
      }
      const hosts = new Map();
      [...cells.values()].forEach((c) => {
        if (!hosts.has(c.host)) hosts.set(c.host, []);
        hosts.get(c.host).push(c);
      });
      if (!hosts.size) {
        fill(grid, h('div.empty-state', h('h2', 'No GPUs seen in the last hour'),
          h('p', 'GPU cells come from dcgm-exporter\u2019s DCGM_FI_DEV_* series (the Flightdeck agent writes the same names).')));
      } else {
        fill(grid, [...hosts.keys()].sort().map((host) => h('div.node-row',
          h('div.node-name', host, h('div.muted', { style: { fontWeight: 400, fontSize: '12px' } }, `${hosts.get(host).length} GPUs`)),
          h('div.gpu-cells', hosts.get(host).sort((a, b) => Number(a.gpu) - Number(b.gpu)).map((c) => gpuCell(c, owners.get(`${c.host}/${c.gpu}`), m, now))))));
      }
      stamp.textContent = at > 0 ? `replaying ${fmtTime(valueTime, true)}` : `at ${fmtTime(valueTime, true)}`;
    } catch (e) {
      if (!disposed) fill(grid, errorBox(e.message));
    }
    chart.opts.unit = m.unit;
    chart.el.querySelector('h3').textContent = `Cluster ${m.label.toLowerCase()}`;
    chart.el.dataset.chart = `Cluster ${m.label.toLowerCase()}`;
    chart.loading();
    try {
      // A cluster seen for minutes only is drawn from its first sample, not as a sliver at the edge.
      const query = (from) => series({ start: from, end: now, width: 600, queries: [{ id: 'c', expr: m.expr, x: 'time', aggregate: 'band' }] });
      let start = now - 3600;
      let d = await query(start);
      const band = d.results[0].band;
      const firstIndex = band ? band.median.findIndex((v) => v !== null) : -1;
      if (firstIndex >= 0 && band.x[firstIndex] - start > 600) {
        start = band.x[firstIndex] - 30;
        d = await query(start);
      }
      if (disposed) return;
      const narrowed = start > now - 3600 + 60;
      hourHeading.textContent = at > 0 ? `${narrowed ? `From ${fmtTime(start)}` : 'The hour'} before ${fmtTime(now)}` : (narrowed ? `Since ${fmtTime(start)}, when the first GPU reported` : 'Over the last hour');
      const r = d.results[0];
      if (r.error) chart.error(r.error);
      else chart.draw({ xMode: 'time', ...toDrawables(r, { bandLabel: 'all GPUs min–max' }), xRange: [start, now] });
    } catch (e) {
      if (!disposed) chart.error(e.message);
    }
  }

  function gpuCell(c, owner, m, now) {
    const { lost, stale } = c;
    const where = `${c.host}/${c.gpu}`;
    const href = owner ? `/runs/${encodeURIComponent(owner)}?gpu=${encodeURIComponent(where)}`
      : `/explore?expr=${encodeURIComponent(`{__name__=~"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_GPU_TEMP",Hostname="${c.host}",gpu="${c.gpu}"}`)}&range=3h`;
    const title = [`${where}`, owner ? `run ${owner}` : 'no run', lost ? `LOST: ${c.unhealthy ? `the agent reports ${c.unhealthy}` : `no sample for ${fmtDuration(now - (c.lastSeen || now))}`}`
        : stale ? `no sample for ${fmtDuration(now - (c.lastSeen || now))}, nor from any GPU of ${c.host}` : `${m.label} ${fmtUnit(c.value, m.unit)}`,
      c.xid ? `XID ${c.xid}` : null, c.throttled ? 'clocks throttled' : null].filter(Boolean).join('\n');
    return h(`a.gpu-cell${lost ? '.lost' : ''}${stale ? '.stale' : ''}${c.xid ? '.xid' : ''}`, {
      href, title, dataset: { gpu: where, lost: lost ? 'true' : null, stale: stale ? 'true' : null, xid: c.xid ? String(c.xid) : null, run: owner || null },
      style: { background: lost || stale ? null : colour(c.value, m.lo, m.hi, m.ramp) },
    },
    h('span.idx', `GPU ${c.gpu}`),
    h('span.val', lost ? 'LOST' : stale ? 'no data' : fmtUnit(c.value, m.unit)),
    h('span.marks', c.xid ? h('span.mark', `XID ${c.xid}`) : null, c.throttled ? h('span.mark.throttle', 'THROTTLE') : null),
    h('span.owner', owner || 'idle'));
  }

  load();
  timer = setInterval(() => { if (!params.get('at')) load(); }, 15000);
  return {
    update(next) {
      params = next.params;
      load();
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
      chart.dispose();
    },
  };
}
