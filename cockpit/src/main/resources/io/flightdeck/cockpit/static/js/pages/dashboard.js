// "/dashboards/<uid>": a stored dashboard drawn. The URL holds Grafana's parameters: from, to
// (now-6h, epoch ms), refresh, var-NAME (repeatable), and x=time|step (step when $run has one
// value). The server resolves the variables and interpolates every query
// (GET /api/v1/dashboards/<uid>/queries, which also expands repeated rows and panels); this page
// lays the grid out, runs the queries, applies the transformations and draws each panel.
// "Versions" lists the saved versions, each older one restorable (?versions=1 keeps it open).
// The dashboard's links sit in its toolbar, each panel's in its header; PromQL annotations shade
// every time-series panel. Times are drawn in the dashboard's time zone (its `timezone`, or the
// URL's timezone= as Grafana's: utc, browser or an IANA name).
import { get } from '../api.js';
import { h, fill, errorBox } from '../dom.js';
import { StepMap } from '../stepmap.js';
import { PanelCard } from '../dashboard/panel-card.js';
import { renderPanel, needsData } from '../dashboard/panels/index.js';
import { runPanelQueries } from '../dashboard/query.js';
import { applyTransforms } from '../dashboard/transforms.js';
import { variablesBar, interpolateText } from '../dashboard/variables.js';
import { timePicker } from '../dashboard/timepicker.js';
import { placeSection, gridElement, place } from '../dashboard/grid.js';
import { editPanel } from '../dashboard/editor.js';
import { showVersions } from '../dashboard/versions.js';
import { dashboardLinks, panelLinks } from '../dashboard/links.js';
import { loadAnnotations } from '../dashboard/annotations.js';
import { parseTime, durationMs } from '../dashboard/time.js';
import { resolveZone, formatTime } from '../dashboard/timezone.js';

export function mount(root, ctx) {
  const uid = ctx.path[0];
  let params = ctx.params;
  let stored = null;
  let answer = null;
  let annotations = { regions: [], notes: [] };
  let cards = [];
  let timer = null;
  let controller = null;
  let disposed = false;
  const expanded = new Map();
  const head = h('section.page-head');
  const toolbar = h('div.dash-toolbar');
  const notice = h('div');
  const saved = h('div', { role: 'status' });
  const body = h('div.dash-body');
  const versionsBox = h('section.dash-versions', { hidden: true });
  root.append(head, toolbar, saved, notice, versionsBox, body);

  const model = () => stored.dashboard;
  const range = () => ({ from: params.get('from') || model().time.from, to: params.get('to') || model().time.to });
  const timeZone = () => resolveZone(params.get('timezone'), model().time.timezone);
  const refreshEvery = () => (params.has('refresh') ? params.get('refresh') : model().time.refresh || '');

  function goTo(changes) {
    const url = new URL(location.href);
    for (const [k, v] of Object.entries(changes)) {
      url.searchParams.delete(k);
      for (const value of Array.isArray(v) ? v : [v]) if (value !== null && value !== undefined && value !== '') url.searchParams.append(k, value);
    }
    ctx.navigate(url.pathname + url.search, { replace: true });
  }

  function runVariable() {
    if (!answer) return null;
    const run = answer.variables.find((v) => v.name === 'run');
    if (!run || run.selected.length !== 1 || run.selected[0] === '$__all' || !run.selected[0]) return null;
    return run.selected[0];
  }

  async function loadModel() {
    stored = await get(`dashboards/${encodeURIComponent(uid)}`);
    document.title = `${stored.title} · Flightdeck`;
    fill(head,
      h('h1', stored.title),
      h('div.dash-meta.muted',
        h('a', { href: '/dashboards' }, 'Dashboards'), stored.folder ? ` / ${stored.folder}` : '',
        ` · version ${stored.version} by ${stored.updatedBy} at ${formatTime(Date.parse(stored.updated), timeZone().zone, 'minute')}`,
        stored.provisionedFrom ? ` · provisioned from ${stored.provisionedFrom}` : '',
        (stored.tags || []).map((t) => h('span.badge', t)),
        ' · export ', h('a', { href: `/api/v1/dashboards/${encodeURIComponent(uid)}/export?format=grafana`, download: `${uid}.json` }, 'Grafana'),
        ' ', h('a', { href: `/api/v1/dashboards/${encodeURIComponent(uid)}/export?format=perses`, download: `${uid}.perses.json` }, 'Perses'),
        ' · ', h('button.dash-versions-toggle', { type: 'button', 'aria-expanded': String(versionsOpen()), onclick: () => goTo({ versions: versionsOpen() ? null : '1' }) }, 'Versions')));
    renderVersions();
  }

  function versionsOpen() {
    return params.get('versions') === '1';
  }

  /** The versions list, read again whenever the dashboard is (a save or a restore made one). */
  function renderVersions() {
    versionsBox.hidden = !versionsOpen();
    if (!versionsOpen()) {
      fill(versionsBox);
      return;
    }
    showVersions(versionsBox, uid, (restored) => {
      fill(saved, h('div.dash-saved', `Restored: version ${restored.version} of ${restored.title}.`));
      load({ reloadModel: true });
    }, timeZone());
  }

  async function load({ reloadModel = false } = {}) {
    if (controller) controller.abort();
    controller = new AbortController();
    const { signal } = controller;
    // What is drawn stays, dimmed, until the new answers replace it.
    cards.forEach((c) => c.loading());
    try {
      if (!stored || reloadModel) await loadModel();
      if (disposed) return;
      const now = Date.now();
      const { from, to } = range();
      const zone = timeZone();
      const fromMs = parseTime(from, now, false, zone.zone);
      const toMs = parseTime(to, now, true, zone.zone);
      const query = { from: fromMs / 1000, to: toMs / 1000, width: Math.max(300, body.clientWidth || 1200) };
      for (const [k, v] of params) if (k.startsWith('var-')) (query[k] = query[k] || []).push(v);
      answer = await get(`dashboards/${encodeURIComponent(uid)}/queries`, query, signal);
      if (disposed || signal.aborted) return;
      const resolved = new Map(answer.variables.map((v) => [v.name, v]));
      annotations = await loadAnnotations(model().annotations, {
        fromMs: answer.from, toMs: answer.to, interpolate: (text) => interpolateText(text, resolved), signal,
      });
      if (disposed || signal.aborted) return;
      fill(notice, [zone.problem, ...annotations.notes].filter(Boolean).map((m) => h('div.muted', m)));
      renderToolbar();
      let stepmap = null;
      if (params.get('x') === 'step' && runVariable()) {
        stepmap = new StepMap(await get(`runs/${encodeURIComponent(runVariable())}/stepmap`, { start: answer.from / 1000, end: answer.to / 1000 }, signal));
      }
      if (disposed || signal.aborted) return;
      renderGrid(stepmap, signal);
    } catch (e) {
      if (e.name === 'AbortError') return;
      cards.forEach((c) => c.el.classList.remove('is-loading'));
      fill(notice, errorBox(e.message));
      if (!stored) fill(body);
    }
    scheduleRefresh();
  }

  function scheduleRefresh() {
    clearInterval(timer);
    const every = durationMs(refreshEvery() || '');
    if (every && every >= 1000) timer = setInterval(() => load(), every);
  }

  function renderToolbar() {
    const resolved = new Map(answer.variables.map((v) => [v.name, v]));
    const { from, to } = range();
    const run = runVariable();
    const xMode = params.get('x') === 'step' && run ? 'step' : 'time';
    fill(toolbar,
      h('div.dash-vars', variablesBar(model().variables, resolved, (name, values) => goTo({ [`var-${name}`]: values }))),
      run ? h('span.control.dash-xaxis', 'x axis ', h('span.seg',
        h(`a${xMode === 'time' ? '.on' : ''}`, { href: '#', 'aria-pressed': String(xMode === 'time'), onclick: (e) => { e.preventDefault(); goTo({ x: null }); } }, 'Time'),
        h(`a${xMode === 'step' ? '.on' : ''}`, { href: '#', 'aria-pressed': String(xMode === 'step'), onclick: (e) => { e.preventDefault(); goTo({ x: 'step' }); } }, `Steps of ${run}`))) : null,
      timePicker({ from, to, refresh: refreshEvery(), refreshChoices: model().time.refreshIntervals, zone: timeZone() }, {
        range: (f, t) => goTo({ from: f, to: t }),
        refresh: (every) => goTo({ refresh: every || (model().time.refresh ? 'off' : null) }),
        reload: () => load(),
      }),
      dashboardLinks(model().links, { interpolate: (text) => interpolateText(text, resolved), uid }));
  }

  /** The queries API entries grouped by section and row-repeat value, in layout order. */
  function instances() {
    const out = [];
    model().layout.forEach((section, s) => {
      const entries = answer.panels.filter((p) => p.section === s);
      const values = [...new Set(entries.map((p) => (p.rowRepeat ? p.rowRepeat.value : null)))];
      if (!values.length) values.push(null);
      values.forEach((value) => out.push({ section, s, value, entries: entries.filter((p) => (p.rowRepeat ? p.rowRepeat.value : null) === value) }));
    });
    return out;
  }

  /**
   * Lays the sections out. A panel already on the page keeps its card (no flash of "Loading…" on
   * a refresh); it runs its queries again only for a new answer (`signal`), not when a row opens.
   */
  function renderGrid(stepmap, signal) {
    const resolved = new Map(answer.variables.map((v) => [v.name, v]));
    const previous = new Map(cards.map((c) => [c.key, c]));
    cards = [];
    const sections = instances().map(({ section, s, value, entries }) => {
      const key = `${s}:${value ?? ''}`;
      const open = expanded.has(key) ? expanded.get(key) : !section.collapsed;
      const local = new Map(resolved);
      if (value !== null && section.repeat) local.set(section.repeat, { options: [value], selected: [value] });
      const title = section.title === null || section.title === undefined ? null : interpolateText(section.title, local);
      const wrap = h('section.dash-section', { dataset: { row: title ?? '', collapsed: String(!open) } });
      if (title !== null) {
        wrap.append(h('button.dash-row', { type: 'button', 'aria-expanded': String(open), onclick: () => {
          expanded.set(key, !open);
          renderGrid(stepmap, signal);
        } }, h('span.dash-row-caret', open ? '▾' : '▸'), title || 'Row', open ? '' : h('span.muted', ` (${entries.length} panel${entries.length === 1 ? '' : 's'})`)));
      }
      if (open) {
        const placed = placeSection(section.items, (id) => entries.filter((e) => e.id === id), model().panels);
        const grid = gridElement(placed);
        placed.filter((p) => p.entry).forEach((p) => {
          const card = panelCard(p.entry, resolved, stepmap, signal, value !== null ? { name: section.repeat, value } : null, key, previous);
          place(card.el, p);
          grid.append(card.el);
        });
        wrap.append(grid);
      }
      return wrap;
    });
    fill(body, sections);
    previous.forEach((c) => { if (!cards.includes(c)) c.dispose(); });
  }

  function panelCard(entry, resolved, stepmap, signal, rowRepeat, sectionKey, previous) {
    const panel = model().panels[entry.id];
    const key = `${sectionKey}|${entry.id}|${entry.panelRepeat ? entry.panelRepeat.value : ''}`;
    const old = previous.get(key);
    if (old && old.el.dataset.chart === entry.title && old.el.dataset.kind === entry.kind) {
      cards.push(old);
      if (old.signal === signal) return old;
      old.signal = signal;
      draw(old, entry, panel, resolved, stepmap, signal, rowRepeat);
      return old;
    }
    const local = new Map(resolved);
    if (rowRepeat) local.set(rowRepeat.name, { options: [rowRepeat.value], selected: [rowRepeat.value] });
    if (entry.panelRepeat) local.set(entry.panelRepeat.variable, { options: [entry.panelRepeat.value], selected: [entry.panelRepeat.value] });
    const card = new PanelCard({
      id: entry.id,
      kind: entry.kind,
      title: entry.title,
      description: panel.description,
      links: panelLinks(panel.links, (text) => interpolateText(text, local)),
      onEdit: entry.kind === 'unsupported' ? null : () => editPanel(stored, entry.id, (result) => {
        fill(saved, h('div.dash-saved', `Saved version ${result.version} of ${result.title}.`));
        load({ reloadModel: true });
      }),
    });
    card.key = key;
    card.signal = signal;
    cards.push(card);
    draw(card, entry, panel, resolved, stepmap, signal, rowRepeat);
    return card;
  }

  /** Runs the panel's queries, transforms the answers and draws them into the card. */
  function draw(card, entry, panel, resolved, stepmap, signal, rowRepeat) {
    const local = new Map(resolved);
    for (const r of [rowRepeat, entry.panelRepeat && { name: entry.panelRepeat.variable, value: entry.panelRepeat.value }]) {
      if (r) local.set(r.name, { options: [r.value], selected: [r.value] });
    }
    const xMode = stepmap ? 'step' : 'time';
    const renderCtx = {
      panel,
      queries: entry.queries,
      xMode,
      zone: timeZone().zone,
      xRange: xMode === 'time' ? [answer.from / 1000, answer.to / 1000] : null,
      syncKey: model().time.graphTooltip > 0 ? `dashboard-${uid}` : null,
      interpolate: (text) => interpolateText(text, local),
      // Annotation regions on the axis drawn: times, or the run's steps through its step map.
      annotations: stepmap
        ? annotations.regions.map((r) => ({ ...r, start: stepmap.stepAt(r.start), end: stepmap.stepAt(r.end) })).filter((r) => r.start !== null && r.end !== null)
        : annotations.regions,
      onZoom: xMode === 'time' ? (min, max) => goTo({ from: String(Math.round(min * 1000)), to: String(Math.round(max * 1000)) }) : null,
    };
    if (!needsData(entry.kind)) {
      renderPanel(entry.kind, card, { frames: [], table: null, notes: [] }, renderCtx);
      return;
    }
    runPanelQueries(entry.queries, signal).then((result) => {
      if (disposed || signal.aborted) return;
      if (result.errors.length && !result.frames.length) {
        card.error(result.errors.join('\n'));
        return;
      }
      let frames = result.frames;
      if (stepmap) frames = frames.map((f) => onSteps(f, stepmap));
      const data = applyTransforms(frames, panel.transformations);
      try {
        renderPanel(entry.kind, card, data, renderCtx);
      } catch (e) {
        console.error(e);
        card.error(`This panel failed to draw: ${e.message}`);
        return;
      }
      result.errors.forEach((m) => card.note(`query ${m}`));
      data.notes.forEach((m) => card.note(m));
    }).catch((e) => {
      if (e.name !== 'AbortError') card.error(e.message);
    });
  }

  load();
  return {
    update(next) {
      const versionsWere = versionsOpen();
      params = next.params;
      if (versionsWere !== versionsOpen()) {
        loadModel().catch((e) => fill(notice, errorBox(e.message)));
        return;
      }
      load();
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
      if (controller) controller.abort();
      cards.forEach((c) => c.dispose());
    },
  };
}

/** A frame on the run's step axis: each time mapped through the step map, sorted by step. */
function onSteps(frame, stepmap) {
  const pairs = frame.x.map((t, i) => [stepmap.stepAt(t), frame.y[i]]).filter((p) => p[0] !== null);
  pairs.sort((a, b) => a[0] - b[0]);
  return { ...frame, x: pairs.map((p) => p[0]), y: pairs.map((p) => p[1]) };
}
