// "What moved with this?": the run's series that moved with a chart's query in the window drawn,
// best first (POST /api/v1/runs/<run>/correlate), each a link to explore it.
import { post } from './api.js';
import { h, fill, errorBox } from './dom.js';
import { fmtTime, fmtDuration, fmtNum } from './format.js';
import { seriesLabel } from './series.js';

/** A selector for exactly this series, to open in Explore. */
function selector(metric) {
  const name = metric.__name__ || '';
  const labels = Object.entries(metric).filter(([k]) => k !== '__name__')
    .map(([k, v]) => `${k}="${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
  return `${name}{${labels.join(',')}}`;
}

function lagText(seconds) {
  if (seconds === null || seconds === undefined || Math.abs(seconds) < 1) return 'at the same time';
  return seconds > 0 ? `${fmtDuration(seconds)} before` : `${fmtDuration(-seconds)} after`;
}

/**
 * A panel listing the movers of `expr` for run `run` between `start` and `end` (unix s), titled
 * after the chart; `onClose` removes it.
 */
export function moversPanel({ run, title, expr, start, end, onClose }) {
  const list = h('div', h('p.muted', 'Comparing every series of the run with it…'));
  const panel = h('section.section-card.movers', { dataset: { movers: title }, 'aria-label': `What moved with ${title}` },
    h('div.movers-head',
      h('h2', `What moved with ${title}?`),
      h('span.muted', `${fmtTime(start, true)} – ${fmtTime(end, true)}: the run's GPUs, hosts, NICs and training series ranked by how they moved with it (rank correlation of changes, and change from the window before).`),
      h('button', { type: 'button', onclick: onClose, 'aria-label': 'Close what moved' }, 'Close')),
    list);
  post(`runs/${encodeURIComponent(run)}/correlate`, { target: expr, start, end })
    .then((movers) => {
      if (!movers.length) {
        fill(list, h('p.muted', 'Nothing of this run moved with it in this window.'));
        return;
      }
      fill(list, h('div.table-wrap', h('table', { 'data-table': 'movers' },
        h('thead', h('tr', ['#', 'Series', 'Moved', 'When', 'Score', 'Correlation', 'Change'].map((c) => h('th', c)))),
        h('tbody', movers.map((m, i) => h('tr', { dataset: { mover: m.metric.__name__ || '' } },
          h('td.num', String(i + 1)),
          h('td', h('a', { href: `/explore?expr=${encodeURIComponent(m.rate ? `rate(${selector(m.metric)}[2m])` : selector(m.metric))}&range=3h&end=${Math.ceil(end)}` },
            h('strong', m.metric.__name__ || ''), ' ', h('span.muted', seriesLabel(m.metric, ''))), m.rate ? h('span.muted', ' (rate)') : null),
          h('td', m.sign > 0 ? h('span.mover-with', '↗ with it') : h('span.mover-against', '↘ against it')),
          h('td', lagText(m.lag_seconds)),
          h('td.num', fmtNum(m.score)),
          h('td.num', fmtNum(m.correlation)),
          h('td.num', fmtNum(m.change))))))));
    })
    .catch((e) => fill(list, errorBox(e.message)));
  return panel;
}
