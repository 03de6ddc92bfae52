// "/dashboards": every stored dashboard (search by title, tags, folders; its version, who saved it
// and when, the file it is provisioned from), export links, and import by paste or file: the
// document goes to POST /api/v1/dashboards/import as it is, and the page shows the import report
// (what was kept of each kind, every field not supported by its JSON path, the warnings) or the
// refusal with the JSON path it names.
import { get } from '../api.js';
import { h, fill, errorBox } from '../dom.js';
import { postDocument } from '../dashboard/requests.js';

export function mount(root, ctx) {
  document.title = 'Dashboards · Flightdeck';
  let params = ctx.params;
  let disposed = false;
  const filters = h('div.controls');
  const list = h('div');
  const importer = importPanel(() => load());
  root.append(h('section.page-head', h('h1', 'Dashboards')), filters, list, importer);

  async function load() {
    fill(list, h('p.muted', 'Loading…'));
    let all;
    let shown;
    try {
      [all, shown] = await Promise.all([
        get('dashboards'),
        get('dashboards', { query: params.get('query') || undefined, tag: params.getAll('tag'), folder: params.get('folder') || undefined }),
      ]);
    } catch (e) {
      fill(list, errorBox(e.message));
      return;
    }
    if (disposed) return;
    renderFilters(all);
    if (!shown.length) {
      fill(list, h('p.muted', all.length ? 'No dashboard matches these filters.' : 'No dashboards yet: import one below.'));
      return;
    }
    fill(list, h('div.table-wrap', h('table', { 'data-table': 'dashboards' },
      h('thead', h('tr', ['Title', 'Folder', 'Tags', 'Version', 'Saved', 'Provisioned from', 'Export'].map((c) => h('th', c)))),
      h('tbody', shown.map((d) => h('tr.dash-row-item', { dataset: { uid: d.uid } },
        h('td', h('a', { href: `/dashboards/${encodeURIComponent(d.uid)}` }, d.title)),
        h('td', d.folder ? h('a', { href: `/dashboards?folder=${encodeURIComponent(d.folder)}` }, d.folder) : h('span.muted', '–')),
        h('td', d.tags.map((t) => h('a.badge', { href: `/dashboards?tag=${encodeURIComponent(t)}` }, t))),
        h('td.num', String(d.version)),
        h('td', `${d.updated.slice(0, 16).replace('T', ' ')} by ${d.updatedBy}`),
        h('td.mono', d.provisionedFrom || h('span.muted', '–')),
        h('td',
          h('a', { href: `/api/v1/dashboards/${encodeURIComponent(d.uid)}/export?format=grafana`, download: `${d.uid}.json` }, 'Grafana'), ' ',
          h('a', { href: `/api/v1/dashboards/${encodeURIComponent(d.uid)}/export?format=perses`, download: `${d.uid}.perses.json` }, 'Perses'))))))));
  }

  function renderFilters(all) {
    const tags = [...new Set(all.flatMap((d) => d.tags))].sort();
    const folders = [...new Set(all.map((d) => d.folder).filter(Boolean))].sort();
    const search = h('input', { type: 'search', placeholder: 'Search titles', value: params.get('query') || '', 'aria-label': 'Search dashboards' });
    search.addEventListener('change', () => ctx.setParams({ query: search.value }));
    const chosenTags = params.getAll('tag');
    fill(filters,
      search,
      h('select', { 'aria-label': 'Folder', onchange: (e) => ctx.setParams({ folder: e.target.value }) },
        h('option', { value: '' }, 'all folders'), folders.map((f) => h('option', { value: f, selected: params.get('folder') === f }, f))),
      h('select', { 'aria-label': 'Tag', onchange: (e) => ctx.setParams({ tag: e.target.value }) },
        h('option', { value: '' }, 'any tag'), tags.map((t) => h('option', { value: t, selected: chosenTags.includes(t) }, t))),
      chosenTags.length || params.get('folder') || params.get('query') ? h('a', { href: '/dashboards' }, 'clear filters') : null);
  }

  load();
  return {
    update(next) {
      params = next.params;
      load();
    },
    dispose() {
      disposed = true;
    },
  };
}

function importPanel(onImported) {
  const text = h('textarea.mono', { rows: 8, cols: 100, name: 'document', 'aria-label': 'Dashboard document', placeholder: 'Paste a Grafana dashboard JSON, or a Perses dashboard in JSON or YAML' });
  const file = h('input', { type: 'file', accept: '.json,.yaml,.yml,application/json', 'aria-label': 'Dashboard file' });
  const folder = h('input', { type: 'text', name: 'folder', placeholder: 'folder (optional)', size: 18, 'aria-label': 'Folder' });
  const overwrite = h('input', { type: 'checkbox', name: 'overwrite' });
  const result = h('div.dash-import-result');
  file.addEventListener('change', async () => {
    if (file.files.length) text.value = await file.files[0].text();
  });
  const submit = async () => {
    if (!text.value.trim()) {
      fill(result, errorBox('Paste a dashboard or choose a file first.'));
      return;
    }
    fill(result, h('p.muted', 'Importing…'));
    const query = { overwrite: String(overwrite.checked) };
    if (folder.value.trim()) query.folder = folder.value.trim();
    try {
      const saved = await postDocument('dashboards/import', text.value, query);
      fill(result, report(saved));
      onImported();
    } catch (e) {
      fill(result, h('div.dash-import-error', errorBox(`Not imported: ${e.message}`)));
    }
  };
  return h('section.dash-import', { 'aria-label': 'Import a dashboard' },
    h('h2', 'Import'),
    h('p.muted', 'Grafana (any schemaVersion: dashboards older than 16, from Grafana 1 to 4, and pre-Grafana-9 panels are converted as Grafana converts them; also the API answer with "meta"), Perses JSON or YAML. Panels Flightdeck does not draw are kept as placeholders and written back on export.'),
    text,
    h('div.controls', file, folder, h('label', overwrite, ' replace a dashboard with the same uid'),
      h('button.primary', { type: 'button', onclick: submit }, 'Import')),
    result);
}

function report(saved) {
  const r = saved.report;
  const counts = Object.entries(r.counts);
  return h('div.dash-report', { dataset: { uid: saved.uid } },
    h('p', 'Imported ', h('a', { href: `/dashboards/${encodeURIComponent(saved.uid)}` }, saved.title), ` as version ${saved.version} (${r.format}).`),
    h('table.dash-report-counts', h('thead', h('tr', h('th', ''), h('th', 'in the file'), h('th', 'kept'))),
      h('tbody', counts.map(([what, c]) => h(`tr${c.kept < c.source ? '.lost' : ''}`, { dataset: { count: what } },
        h('th', what), h('td.num', String(c.source)), h('td.num', String(c.kept)))))),
    r.unsupported.length ? h('div', h('h3', `Not supported (${r.unsupported.length})`),
      h('ul.dash-report-unsupported', r.unsupported.map((u) => h('li', h('code', u.path), ` ${u.reason}`)))) : h('p.muted', 'Every field is supported.'),
    r.warnings.length ? h('div', h('h3', `Warnings (${r.warnings.length})`), h('ul.dash-report-warnings', r.warnings.map((w) => h('li', w)))) : null);
}
