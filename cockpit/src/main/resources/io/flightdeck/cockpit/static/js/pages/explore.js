// "/explore?expr=…": a PromQL editor (CodeMirror, checked as you type by /api/v1/parse_query), a graph
// (query_range; or, with ?run=R&x=step, the run's step axis through /api/v1/cockpit/series) and a
// table (instant query). ?range=1h and ?end=<unix s> set the window; Ctrl+Enter runs.
import { get, series, num } from '../api.js';
import { h, fill, errorBox } from '../dom.js';
import { fmtNum, fmtTime } from '../format.js';
import { Chart, PALETTE } from '../chart.js';
import { toDrawables, seriesLabel } from '../series.js';

const RANGES = { '15m': 900, '1h': 3600, '3h': 10800, '6h': 21600, '12h': 43200, '1d': 86400, '2d': 172800, '7d': 604800 };

export function mount(root, ctx) {
  document.title = 'Explore · Flightdeck';
  let params = ctx.params;
  const editorBox = h('div.editor');
  const parseMessage = h('div.parse-message');
  const run = h('button.primary', { type: 'button' }, 'Run query');
  const rangeSelect = h('select', { 'aria-label': 'Range' }, Object.keys(RANGES).map((k) => h('option', { value: k }, k)));
  const metricSelect = h('select', { 'aria-label': 'Insert a metric name' }, h('option', { value: '' }, 'insert metric…'));
  const runInput = h('input', { type: 'text', placeholder: 'run (for the step axis)', 'aria-label': 'Run for the step axis', size: 22 });
  const xSelect = h('select', { 'aria-label': 'x axis' }, h('option', { value: 'time' }, 'wall time'), h('option', { value: 'step' }, 'steps of run'));
  const chart = new Chart({ title: 'Query result', unit: '', height: 320, onZoom: (min, max) => zoom(min, max) });
  const tableBox = h('div.table-wrap');
  root.append(
    h('section.page-head', h('h1', 'Explore')),
    h('div.section-card', editorBox, parseMessage,
      h('div.toolbar', { style: { marginTop: '8px', marginBottom: 0 } }, run, h('label.control', 'Range', rangeSelect),
        h('label.control', 'x', xSelect), runInput, metricSelect, h('span.muted', 'Ctrl+Enter runs · Tab completes'))),
    chart.el, h('h2', 'Table (instant query at the end of the range)'), tableBox);

  let controller = null;
  // CodeMirror is loaded with this page only, not with every cockpit page.
  let editor = null;
  let disposed = false;
  import('../promql-editor.js').then(({ createPromqlEditor }) => {
    if (disposed) return;
    editor = createPromqlEditor(editorBox, {
      doc: params.get('expr') || '',
      onRun: () => execute(),
      onCheck: (message) => {
        editorBox.classList.toggle('invalid', message !== null);
        fill(parseMessage, message === null ? null : errorBox(message));
      },
    });
    editor.metrics().then((list) => {
      list.forEach((n) => metricSelect.append(h('option', { value: n }, n)));
    });
  }).catch((e) => fill(parseMessage, errorBox(`The editor failed to load: ${e.message}`)));

  function sync() {
    rangeSelect.value = RANGES[params.get('range')] ? params.get('range') : '1h';
    xSelect.value = params.get('x') === 'step' ? 'step' : 'time';
    runInput.value = params.get('run') || '';
    if (editor && !editor.hasFocus()) editor.setValue(params.get('expr') || '');
  }

  function execute() {
    ctx.setParams({ expr: (editor ? editor.value() : params.get('expr') || '').trim(), range: rangeSelect.value, x: xSelect.value === 'step' ? 'step' : null, run: runInput.value.trim() || null }, { push: true });
  }

  function zoom(min, max) {
    if (min === null || xSelect.value === 'step') return;
    const seconds = max - min;
    const best = Object.entries(RANGES).find(([, s]) => s >= seconds) || ['7d'];
    ctx.setParams({ range: best[0], end: Math.ceil(max) }, { push: true });
  }

  run.addEventListener('click', execute);
  rangeSelect.addEventListener('change', execute);
  xSelect.addEventListener('change', execute);
  metricSelect.addEventListener('change', () => {
    if (!metricSelect.value || !editor) return;
    editor.insert(metricSelect.value);
    metricSelect.value = '';
  });

  async function load() {
    sync();
    const expr = (params.get('expr') || '').trim();
    if (!expr) {
      chart.empty('Type an expression and run it.');
      fill(tableBox, h('p.muted', { style: { padding: '8px 12px' } }, 'No query yet.'));
      return;
    }
    if (controller) controller.abort();
    controller = new AbortController();
    const signal = controller.signal;
    const seconds = RANGES[params.get('range')] || 3600;
    const end = Number(params.get('end')) || Date.now() / 1000;
    const start = end - seconds;
    chart.loading();
    const stepAxis = params.get('x') === 'step' && params.get('run');
    const graph = stepAxis
      ? series({ start, end, width: 800, queries: [{ id: 'q', expr, x: 'step', run: params.get('run') }] }, signal)
        .then((d) => {
          const r = d.results[0];
          if (r.error) throw new Error(r.error);
          chart.draw({ xMode: 'step', ...toDrawables(r) });
        })
      : get('query_range', { query: expr, start, end, step: Math.max(1, Math.round(seconds / 700)) }, signal)
        .then((d) => drawMatrix(d, start, end));
    const table = get('query', { query: expr, time: end }, signal).then(drawTable);
    await Promise.all([
      graph.catch((e) => { if (e.name !== 'AbortError') chart.error(e.message); }),
      table.catch((e) => { if (e.name !== 'AbortError') fill(tableBox, errorBox(e.message)); }),
    ]);
  }

  function drawMatrix(d, start, end) {
    if (d.resultType === 'scalar' || d.resultType === 'string') {
      chart.empty(`A ${d.resultType}: ${d.result[1]}`);
      return;
    }
    const lines = d.result.slice(0, 200).map((s, i) => ({
      label: seriesLabel(s.metric, s.metric.__name__ || expr()), colour: PALETTE[i % PALETTE.length],
      x: s.values.map((v) => v[0]), y: s.values.map((v) => num(v[1])), width: 1.5,
    }));
    const nonFinite = d.result.flatMap((s) => s.values.filter((v) => !Number.isFinite(num(v[1]))).map((v) => ({ x: v[0] })));
    chart.setSubtitle(d.result.length > 200 ? `first 200 of ${d.result.length} series` : `${d.result.length} series`);
    chart.draw({ xMode: 'time', lines, nonFinite, xRange: [start, end] });
  }

  const expr = () => (params.get('expr') || '').trim();

  function drawTable(d) {
    if (d.resultType === 'scalar' || d.resultType === 'string') {
      fill(tableBox, h('table', { 'data-table': 'result' }, h('tbody', h('tr', h('td', d.resultType), h('td.num', String(d.result[1]))))));
      return;
    }
    const rows = d.resultType === 'vector'
      ? d.result.map((s) => [s.metric, s.value[1]])
      : d.result.map((s) => [s.metric, s.values.length ? s.values[s.values.length - 1][1] : null]);
    if (!rows.length) {
      fill(tableBox, h('p.muted', { style: { padding: '8px 12px' } }, 'Empty result.'));
      return;
    }
    fill(tableBox, h('table', { 'data-table': 'result' },
      h('thead', h('tr', h('th', 'Series'), h('th', 'Value'))),
      h('tbody', rows.slice(0, 1000).map(([m, v]) => h('tr',
        h('td.labels', h('strong', m.__name__ || ''), ' ', Object.entries(m).filter(([k]) => k !== '__name__').map(([k, val]) => h('code', `${k}="${val}"`))),
        h('td.num', fmtNum(num(v), 6)))))));
  }

  load();
  return {
    update(next) {
      params = next.params;
      load();
    },
    dispose() {
      if (controller) controller.abort();
      chart.dispose();
      disposed = true;
      if (editor) editor.destroy();
    },
  };
}
