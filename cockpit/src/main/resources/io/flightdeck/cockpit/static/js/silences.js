// Silences, kept in Alertmanager (through /api/v1/silences): the list with an expire button, a
// form that silences an alert from its row, and which silence mutes a given alert.
import { get, post, del } from './api.js';
import { h, fill, errorBox } from './dom.js';
import { fmtTime, fmtDuration } from './format.js';

const DURATIONS = [['1h', 3600], ['2h', 7200], ['4h', 14400], ['12h', 43200], ['1d', 86400], ['3d', 259200]];
const AUTHOR_KEY = 'flightdeck.silence.author';

/** Alertmanager's matcher semantics: =, !=, =~, !~ with the regex anchored at both ends. */
function matches(matcher, labels) {
  const value = labels[matcher.name] ?? '';
  let hit;
  if (matcher.isRegex) {
    try {
      hit = new RegExp(`^(?:${matcher.value})$`).test(value);
    } catch (e) {
      hit = false;
    }
  } else {
    hit = value === matcher.value;
  }
  return matcher.isEqual === false ? !hit : hit;
}

/** The active silence that mutes an alert with these labels, or null. */
export function silencing(silences, labels) {
  return silences.find((s) => s.status.state === 'active' && s.matchers.every((m) => matches(m, labels))) || null;
}

function matcherText(m) {
  const op = `${m.isEqual === false ? '!' : '='}${m.isRegex ? '~' : m.isEqual === false ? '=' : ''}`;
  return `${m.name}${op === '=' ? '=' : op}"${m.value}"`;
}

/**
 * Loads the silences into `el` as a table and returns them (active and pending first; expired
 * ones of the last day after them). Without an Alertmanager it says where silences live.
 */
export async function loadSilences(el, onChange) {
  let data;
  try {
    data = await get('silences');
  } catch (e) {
    fill(el, errorBox(`Silences: ${e.message}`));
    return [];
  }
  if (!data.alertmanager) {
    fill(el, h('p.muted', { dataset: { silences: 'none' } },
      'Silences live in Alertmanager, and none is configured: add alerting.alertmanagers to flightdeck.yml to silence alerts from here.'));
    return [];
  }
  const order = { active: 0, pending: 1, expired: 2 };
  const dayAgo = Date.now() - 86400000;
  const shown = data.silences
    .filter((s) => s.status.state !== 'expired' || Date.parse(s.endsAt) > dayAgo)
    .sort((a, b) => order[a.status.state] - order[b.status.state] || Date.parse(b.endsAt) - Date.parse(a.endsAt));
  if (!shown.length) {
    fill(el, h('p.muted', { dataset: { silences: 'empty' } }, `No silence in ${data.alertmanager}. Silence an alert from its row above.`));
    return data.silences;
  }
  fill(el, h('div.table-wrap', h('table', { 'data-table': 'silences' },
    h('thead', h('tr', ['State', 'Matchers', 'Ends', 'Created by', 'Comment', ''].map((c) => h('th', c)))),
    h('tbody', shown.map((s) => {
      const ends = Date.parse(s.endsAt) / 1000;
      const left = ends - Date.now() / 1000;
      return h('tr', { dataset: { silence: s.id, state: s.status.state } },
        h('td', h(`span.pill.status-${s.status.state === 'expired' ? 'unknown' : s.status.state === 'active' ? 'pending' : 'inactive'}`, s.status.state)),
        h('td.mono', { style: { whiteSpace: 'normal' } }, s.matchers.map((m) => h('code', matcherText(m)))),
        h('td.time', `${fmtTime(ends, true)}${left > 0 ? ` (in ${fmtDuration(left)})` : ''}`),
        h('td', s.createdBy),
        h('td', { style: { whiteSpace: 'normal', maxWidth: '360px' } }, s.comment),
        h('td', s.status.state === 'expired' ? '' : h('button', {
          type: 'button',
          'aria-label': `Expire silence ${s.id}`,
          async onclick(event) {
            event.target.disabled = true;
            try {
              await del(`silences/${encodeURIComponent(s.id)}`);
            } catch (e) {
              event.target.replaceWith(errorBox(e.message));
              return;
            }
            onChange();
          },
        }, 'Expire')));
    })))));
  return data.silences;
}

/**
 * A form that silences alerts matching `labels` (the alert name, and the run, host or GPU when the
 * row has one), for a chosen time, with a comment and author as Alertmanager requires.
 */
export function silenceForm(labels, onDone) {
  const matchers = Object.entries(labels).map(([name, value]) => ({ name, value, isRegex: false, isEqual: true }));
  const duration = h('select', { 'aria-label': 'Silence for' },
    DURATIONS.map(([label, seconds]) => h('option', { value: seconds, selected: seconds === 7200 }, label)));
  const comment = h('input', { type: 'text', placeholder: 'why (required)', required: true, size: 36, 'aria-label': 'Comment' });
  const author = h('input', { type: 'text', placeholder: 'your name', required: true, size: 14, 'aria-label': 'Created by',
    value: localStorage.getItem(AUTHOR_KEY) || '' });
  const message = h('span');
  const form = h('form.silence-form', {
    dataset: { form: 'silence' },
    async onsubmit(event) {
      event.preventDefault();
      const now = Date.now();
      localStorage.setItem(AUTHOR_KEY, author.value);
      fill(message, h('span.muted', 'Silencing…'));
      try {
        await post('silences', {
          matchers,
          startsAt: new Date(now).toISOString(),
          endsAt: new Date(now + Number(duration.value) * 1000).toISOString(),
          createdBy: author.value,
          comment: comment.value,
        });
      } catch (e) {
        fill(message, errorBox(e.message));
        return;
      }
      onDone();
    },
  },
  h('span.labels', matchers.map((m) => h('code', matcherText(m)))),
  ' for ', duration, ' ', comment, ' ', author, ' ',
  h('button.primary', { type: 'submit' }, 'Silence'),
  h('button', { type: 'button', onclick: () => form.remove() }, 'Cancel'),
  message);
  return form;
}
