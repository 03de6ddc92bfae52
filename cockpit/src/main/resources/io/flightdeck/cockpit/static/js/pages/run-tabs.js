// The run page's tabs below the overview: every scalar as a card grid (grouped by tag prefix,
// lazily loaded, ?tags=<regex> filters), histograms (offset view), text samples by step, hparams
// and the event log. TensorBoard data is found through /api/v1/tensorboard/runs.
import { get, series, quote, num } from '../api.js';
import { h, fill, errorBox } from '../dom.js';
import { fmtNum, fmtTime, fmtStep } from '../format.js';
import { Chart, eventColour } from '../chart.js';
import { eventPlace, placeText } from '../events.js';
import { toDrawables } from '../series.js';
import { runMatcher } from '../roles.js';
import { drawRidgeline } from '../histogram.js';

/** Mounts tab `name` into `el`; returns {dispose}. */
export function mount(name, el, ctx) {
  switch (name) {
    case 'scalars': return scalars(el, ctx);
    case 'histograms': return histograms(el, ctx);
    case 'text': return texts(el, ctx);
    case 'hparams': return hparams(el, ctx);
    case 'images': return images(el, ctx);
    default: return eventLog(el, ctx);
  }
}

/** The TensorBoard runs whose name is this run's. */
async function tensorboardRuns(run) {
  const all = await get('tensorboard/runs');
  return all.filter((r) => r.run === run);
}

function scalars(el, ctx) {
  const { run, params } = ctx;
  const filter = h('input.filter', { type: 'search', placeholder: 'Filter by regex', 'aria-label': 'Filter scalars by regular expression', value: params.get('tags') || '' });
  let debounce = null;
  filter.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => ctx.setParams({ tags: filter.value }), 300);
  });
  const grid = h('div', h('p.muted', 'Finding scalars…'));
  el.append(h('div.toolbar', filter), grid);
  const cards = [];
  const pending = new Set();
  let flushTimer = null;
  let disposed = false;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const card = cards.find((c) => c.chart.el === entry.target);
      if (card && !card.requested) {
        card.requested = true;
        pending.add(card);
        observer.unobserve(entry.target);
      }
    }
    if (pending.size && !flushTimer) flushTimer = setTimeout(flush, 30);
  }, { rootMargin: '200px' });

  async function flush() {
    flushTimer = null;
    const batch = [...pending];
    pending.clear();
    const [start, end] = ctx.range;
    try {
      const data = await series({
        start, end, width: 400,
        queries: batch.map((c, i) => ({ id: String(i), expr: c.expr, x: ctx.xMode, run: run.run })),
      });
      if (disposed) return;
      data.results.forEach((r) => {
        const card = batch[Number(r.id)];
        if (r.error) card.chart.error(r.error);
        else card.chart.draw({ xMode: ctx.xMode, ...toDrawables(r, { smoothing: ctx.smoothing, fallbackLabel: card.title }) });
      });
    } catch (e) {
      if (!disposed) batch.forEach((c) => c.chart.error(e.message));
    }
  }

  (async () => {
    const [tb, names] = await Promise.all([
      tensorboardRuns(run.run).catch(() => []),
      get('series', { 'match[]': `{${runMatcher(run.run)}}`, start: run.first_seen, end: run.last_seen }).catch((e) => ({ error: e })),
    ]);
    if (disposed) return;
    if (names.error) {
      fill(grid, errorBox(names.error.message));
      return;
    }
    const items = [];
    for (const name of [...new Set(names.map((s) => s.__name__))].sort()) {
      if (name.startsWith('tensorboard_')) continue;
      items.push({ title: name, group: name.split(/[_:]/)[0], expr: `${name}{${runMatcher(run.run)}}` });
    }
    for (const r of tb) {
      for (const t of r.tags.filter((x) => x.kind === 'scalar')) {
        items.push({ title: t.tag, group: t.tag.includes('/') ? t.tag.split('/')[0] : '(no prefix)',
          expr: `tensorboard_scalar{run=${quote(run.run)},logdir=${quote(r.logdir)},tag=${quote(t.tag)}}` });
      }
    }
    let pattern = null;
    try {
      pattern = params.get('tags') ? new RegExp(params.get('tags')) : null;
    } catch (e) {
      fill(grid, errorBox(`invalid regex: ${e.message}`));
      return;
    }
    const shown = pattern ? items.filter((i) => pattern.test(i.title)) : items;
    if (!shown.length) {
      fill(grid, h('p.muted', items.length ? 'No scalar matches the filter.' : 'This run has no scalars.'));
      return;
    }
    const groups = new Map();
    shown.forEach((i) => {
      if (!groups.has(i.group)) groups.set(i.group, []);
      groups.get(i.group).push(i);
    });
    fill(grid, [...groups].map(([group, list]) => {
      const g = h('div.chart-grid');
      for (const item of list) {
        const chart = new Chart({ title: item.title, unit: '', height: 170, syncKey: `scalars-${run.run}`, onZoom: ctx.zoom });
        chart.setSubtitle(item.expr);
        cards.push({ ...item, chart, requested: false });
        observer.observe(chart.el);
        g.append(chart.el);
      }
      return h('section.card-group', h('h2', `${group} (${list.length})`), g);
    }));
  })();
  return {
    dispose() {
      disposed = true;
      observer.disconnect();
      clearTimeout(flushTimer);
      cards.forEach((c) => c.chart.dispose());
    },
  };
}

function histograms(el, ctx) {
  let disposed = false;
  el.append(h('p.muted', 'Loading histograms…'));
  (async () => {
    const tb = await tensorboardRuns(ctx.run.run).catch((e) => ({ error: e }));
    if (disposed) return;
    if (tb.error) return fill(el, errorBox(tb.error.message));
    const tags = tb.flatMap((r) => r.tags.filter((t) => t.kind === 'histogram').map((t) => ({ logdir: r.logdir, tag: t.tag })));
    if (!tags.length) return fill(el, h('p.muted', 'This run has no TensorBoard histograms.'));
    const grid = h('div.chart-grid');
    fill(el, grid);
    for (const t of tags) {
      const card = h('section.chart-card', { dataset: { chart: t.tag, state: 'loading' } }, h('header', h('h3', t.tag), h('span.chart-sub', 'offset view: one ridge per step, newest in front')));
      grid.append(card);
      get('tensorboard/histograms', { logdir: t.logdir, run: ctx.run.run, tag: t.tag }).then((points) => {
        if (disposed) return;
        drawRidgeline(card, points);
      }).catch((e) => {
        card.dataset.state = 'error';
        card.append(errorBox(e.message));
      });
    }
  })();
  return { dispose() { disposed = true; } };
}

function texts(el, ctx) {
  let disposed = false;
  el.append(h('p.muted', 'Loading text samples…'));
  (async () => {
    const tb = await tensorboardRuns(ctx.run.run).catch((e) => ({ error: e }));
    if (disposed) return;
    if (tb.error) return fill(el, errorBox(tb.error.message));
    const tags = tb.flatMap((r) => r.tags.filter((t) => t.kind === 'text').map((t) => ({ logdir: r.logdir, tag: t.tag })));
    if (!tags.length) return fill(el, h('p.muted', 'This run has no text samples.'));
    fill(el);
    for (const t of tags) {
      const section = h('section.section-card', { dataset: { text: t.tag } }, h('h3', t.tag));
      el.append(section);
      try {
        const samples = await get('tensorboard/text', { logdir: t.logdir, run: ctx.run.run, tag: t.tag });
        samples.slice().reverse().slice(0, 100).forEach((s) => section.append(
          h('div.text-sample', h('div.muted', `step ${fmtStep(s.step)} · ${fmtTime(s.wall_time)}`), s.values.join('\n'))));
      } catch (e) {
        section.append(errorBox(e.message));
      }
    }
  })();
  return { dispose() { disposed = true; } };
}

function images(el, ctx) {
  let disposed = false;
  el.append(h('p.muted', 'Loading images…'));
  (async () => {
    const tb = await tensorboardRuns(ctx.run.run).catch((e) => ({ error: e }));
    if (disposed) return;
    if (tb.error) return fill(el, errorBox(tb.error.message));
    const tags = tb.flatMap((r) => r.tags.filter((t) => t.kind === 'image').map((t) => ({ logdir: r.logdir, tag: t.tag })));
    if (!tags.length) return fill(el, h('p.muted', 'This run has no TensorBoard images.'));
    const grid = h('div.chart-grid');
    fill(el, grid);
    for (const t of tags) {
      const card = h('section.chart-card', { dataset: { image: t.tag } }, h('header', h('h3', t.tag)));
      grid.append(card);
      try {
        const list = await get('tensorboard/images', { logdir: t.logdir, run: ctx.run.run, tag: t.tag });
        if (!list.length) {
          card.append(h('p.muted', 'No images.'));
          continue;
        }
        const img = h('img.tb-image', { alt: `${t.tag}` });
        const label = h('span.muted');
        const slider = h('input', { type: 'range', min: 0, max: list.length - 1, step: 1, value: list.length - 1, 'aria-label': `Step of ${t.tag}` });
        const show = () => {
          const item = list[Number(slider.value)];
          img.src = item.url;
          img.dataset.step = String(item.step);
          label.textContent = `step ${fmtStep(item.step)} · ${item.width}×${item.height} · ${fmtTime(item.wall_time, true)}`;
        };
        slider.addEventListener('input', show);
        show();
        card.append(h('div.image-box', img), h('label.control', 'Step', slider, label));
      } catch (e) {
        card.append(errorBox(e.message));
      }
    }
  })();
  return { dispose() { disposed = true; } };
}

function hparams(el, ctx) {
  let disposed = false;
  el.append(h('p.muted', 'Loading hparams…'));
  get('tensorboard/hparams').then((all) => {
    if (disposed) return;
    const mine = all.filter((r) => r.run === ctx.run.run);
    if (!mine.length) return fill(el, h('p.muted', 'This run logged no hparams.'));
    fill(el, mine.map((r) => h('section.section-card', h('h3', `${r.logdir}`),
      h('table', { 'data-table': 'hparams' }, h('tbody', Object.entries(r.hparams).map(([k, v]) => h('tr', h('th', k), h('td.mono', String(v)))))))));
  }).catch((e) => fill(el, errorBox(e.message)));
  return { dispose() { disposed = true; } };
}

function eventLog(el, ctx) {
  let disposed = false;
  const [start, end] = ctx.range;
  get(`runs/${encodeURIComponent(ctx.run.run)}/events`, { start, end }).then((events) => {
    if (disposed) return;
    if (!events.length) return fill(el, h('p.muted', 'No events in this range.'));
    fill(el, h('div.table-wrap', h('table', { 'data-table': 'events' },
      h('thead', h('tr', ['Time', 'Kind', 'Step', 'Where', 'What', 'Until'].map((c) => h('th', c)))),
      h('tbody', events.slice().reverse().map((e) => h('tr',
        h('td.time', fmtTime(e.time, true)),
        h('td', h('span.badge', { style: { background: eventColour(e.kind), color: '#000' } }, e.kind)),
        h('td.num', fmtStep(num(e.step))),
        h('td', placeText(eventPlace(e)) || '–'),
        h('td', e.title),
        h('td.time', e.end ? fmtTime(e.end, true) : '–')))))));
  }).catch((e) => fill(el, errorBox(e.message)));
  return { dispose() { disposed = true; } };
}
