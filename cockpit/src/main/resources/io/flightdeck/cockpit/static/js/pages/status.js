// "/status": scrape targets and their health, TensorBoard logdirs with their import progress and runs, TSDB head and cardinality, build
// and runtime, command-line flags and the loaded configuration (Prometheus's status pages in one).
import { get } from '../api.js';
import { h, fill, statusPill, errorBox } from '../dom.js';
import { fmtTime, fmtNum, fmtDuration, fmtStep, fmtBytes } from '../format.js';

function section(title, id) {
  const body = h('div', h('p.muted', 'Loading…'));
  return { el: h('section.section-card', { dataset: { section: id } }, h('h2', { style: { marginTop: 0 } }, title), body), body };
}

function kv(obj) {
  return h('dl.kv', Object.entries(obj).flatMap(([k, v]) => [h('dt', k), h('dd', typeof v === 'object' ? JSON.stringify(v) : String(v))]));
}

async function into(target, load) {
  try {
    fill(target, await load());
  } catch (e) {
    fill(target, errorBox(e.message));
  }
}

export function mount(root) {
  document.title = 'Status · Flightdeck';
  const targets = section('Targets', 'targets');
  const tensorboard = section('TensorBoard runs', 'tensorboard');
  const tsdb = section('TSDB', 'tsdb');
  const build = section('Build and runtime', 'runtime');
  const flags = section('Command-line flags', 'flags');
  const config = section('Configuration', 'config');
  root.append(h('section.page-head', h('h1', 'Status')), targets.el, tensorboard.el,
    h('div.two-col', tsdb.el, build.el), flags.el, config.el);

  into(targets.body, async () => {
    const d = await get('targets');
    if (!d.activeTargets.length) return h('p.muted', 'No scrape targets. Add scrape_configs to the configuration.');
    return h('div.table-wrap', h('table', { 'data-table': 'targets' },
      h('thead', h('tr', ['Health', 'Job', 'Endpoint', 'Labels', 'Last scrape', 'Duration', 'Error'].map((c) => h('th', c)))),
      h('tbody', d.activeTargets.map((t) => h('tr',
        h('td', statusPill(t.health)),
        h('td', t.labels.job || t.scrapePool),
        h('td.mono', t.scrapeUrl),
        h('td.labels', Object.entries(t.labels).filter(([k]) => k !== 'job').map(([k, v]) => h('code', `${k}="${v}"`))),
        // A scrape stamped a moment ahead of this browser's clock reads "0s ago", not "-1s ago".
        h('td.time', t.lastScrape && Date.parse(t.lastScrape) > 0 ? `${fmtDuration(Math.max(0, Date.now() / 1000 - Date.parse(t.lastScrape) / 1000))} ago` : 'never'),
        h('td.num', `${fmtNum((t.lastScrapeDuration || 0) * 1000)} ms`),
        h('td.field-error', { style: { whiteSpace: 'normal' } }, t.lastError || ''))))));
  });
  const tensorboardImport = h('div');
  async function loadImport() {
    let logdirs;
    try {
      logdirs = await get('status/tensorboard');
    } catch (e) {
      fill(tensorboardImport, errorBox(`Import progress: ${e.message}`));
      return true;
    }
    fill(tensorboardImport, logdirs.map((d) => {
      const share = d.bytesTotal ? d.bytesRead / d.bytesTotal : 1;
      const pending = d.eventFiles.filter((f) => f.reading || f.error || f.bytesRead < f.bytesTotal);
      return h('div.import', { dataset: { logdir: d.logdir, done: share >= 1 && !pending.length } },
        h('div', { style: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' } },
          h('span.mono', d.logdir),
          h('progress', { max: 1, value: share, 'aria-label': `read of ${d.logdir}` }),
          h('span', `${fmtNum(share * 100)}% of ${fmtBytes(d.bytesTotal)} read`),
          h('span.muted', `${fmtNum(d.runs)} runs · ${fmtNum(d.files)} event files · ${fmtNum(d.points)} points`),
          d.errors ? h('span.field-error', `${fmtNum(d.errors)} errors (see the server log)`) : null,
          h('span.muted', d.lastPoll ? `last poll ${fmtDuration(Math.max(0, Date.now() / 1000 - d.lastPoll))} ago` : 'first poll under way')),
        pending.length ? h('table', { 'data-table': 'tensorboard-files' }, h('tbody', pending.slice(0, 10).map((f) => h('tr',
          h('td', f.run), h('td.mono', f.file.split('/').pop()),
          h('td.num', `${fmtBytes(f.bytesRead)} / ${fmtBytes(f.bytesTotal)}`),
          h('td', f.error ? h('span.field-error', f.error) : f.reading ? 'reading' : 'waiting for the next poll'))))) : null);
    }));
    return logdirs.every((d) => d.bytesRead >= d.bytesTotal && !d.eventFiles.some((f) => f.error));
  }
  // While an import is under way its progress moves: poll it until every logdir is read.
  let importTimer = null;
  loadImport().then((done) => {
    if (!done) importTimer = setInterval(async () => { if (await loadImport()) clearInterval(importTimer); }, 3000);
  });
  into(tensorboard.body, async () => {
    const runs = await get('tensorboard/runs');
    if (!runs.length) return [tensorboardImport, h('p.muted', 'No TensorBoard runs. Start the server with --tensorboard.logdir=DIR to watch event files.')];
    return [tensorboardImport, h('div.table-wrap', h('table', { 'data-table': 'tensorboard' },
      h('thead', h('tr', ['Logdir', 'Run', 'Scalars', 'Histograms', 'Text', 'Steps'].map((c) => h('th', c)))),
      h('tbody', runs.map((r) => {
        const count = (kind) => r.tags.filter((t) => t.kind === kind).length;
        const max = Math.max(...r.tags.map((t) => t.max_step ?? 0));
        return h('tr', h('td.mono', r.logdir), h('td', h('a', { href: `/runs/${encodeURIComponent(r.run)}` }, r.run)),
          h('td.num', String(count('scalar'))), h('td.num', String(count('histogram'))), h('td.num', String(count('text'))), h('td.num', fmtStep(max)));
      }))))];
  });
  into(tsdb.body, async () => {
    const d = await get('status/tsdb');
    const head = d.headStats;
    return h('div', kv({
      'head series': fmtNum(head.numSeries), 'head chunks': fmtNum(head.chunkCount), 'label pairs': fmtNum(head.numLabelPairs),
      'head from': fmtTime(head.minTime / 1000, true), 'head to': fmtTime(head.maxTime / 1000, true),
    }), h('h3', { style: { margin: '12px 0 4px' } }, 'Series by metric'),
    h('table', { 'data-table': 'cardinality' }, h('tbody', (d.seriesCountByMetricName || []).slice(0, 10).map((m) => h('tr', h('td.mono', m.name), h('td.num', fmtNum(m.value)))))));
  });
  into(build.body, async () => {
    const [b, r] = await Promise.all([get('status/buildinfo'), get('status/runtimeinfo')]);
    return kv({ version: b.version, java: b.goVersion, started: r.startTime, 'working dir': r.CWD, host: r.hostname, cores: r.GOMAXPROCS, 'config reloaded': r.reloadConfigSuccess ? 'yes' : 'FAILED' });
  });
  into(flags.body, async () => kv(await get('status/flags')));
  into(config.body, async () => h('pre.config', (await get('status/config')).yaml));
  return {
    dispose() {
      clearInterval(importTimer);
    },
  };
}
