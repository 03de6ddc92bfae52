// Grafana's time range words: "now", "now-6h", "now-1d/d", epoch milliseconds (as Grafana's URLs
// carry them) and ISO dates, turned into epoch milliseconds; and the refresh intervals. Rounding
// ("now/d") and dates without an offset are read in the dashboard's time zone (timezone.js).
import { formatTime, fromWall, offsetMs } from './timezone.js';

const UNIT_MS = { s: 1000, m: 60000, h: 3600000, d: 86400000, w: 604800000, M: 2592000000, y: 31536000000 };

/** A duration such as "5m", "1h30m" or "10s" in milliseconds; null when it is not one. */
export function durationMs(text) {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w|M|y)/g;
  let total = 0;
  let consumed = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * (m[2] === 'ms' ? 1 : UNIT_MS[m[2]]);
    consumed += m[0].length;
  }
  return consumed > 0 && consumed === text.length ? total : null;
}

/** `ms` rounded down to the start of its `unit` on the wall clock of `zone` (null: the browser's). */
function roundDown(ms, unit, zone) {
  const wall = ms + offsetMs(ms, zone);
  const d = new Date(wall);
  let rounded;
  switch (unit) {
    case 'y': rounded = Date.UTC(d.getUTCFullYear(), 0, 1); break;
    case 'M': rounded = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1); break;
    case 'w': rounded = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7)); break;
    default: rounded = wall - (wall % UNIT_MS[unit]);
  }
  return fromWall(rounded, zone);
}

/**
 * A time expression in epoch ms. `now` is the moment to count from; a "/unit" suffix rounds down
 * (for a range's end, `isEnd` rounds to the end of that unit, as Grafana does). A date without
 * an offset is a wall-clock time in `zone`. Throws an Error naming the text when it is none of the forms.
 */
export function parseTime(text, now, isEnd = false, zone = 'UTC') {
  const s = String(text ?? '').trim();
  if (/^\d{10,}$/.test(s)) return Number(s);
  const rel = s.match(/^now(?:([+-])([0-9a-zA-Z.]+?))?(?:\/([smhdwMy]))?$/);
  if (rel) {
    let t = now;
    if (rel[1]) {
      const d = durationMs(rel[2]);
      if (d === null) throw new Error(`"${s}" is not a time: "${rel[2]}" is not a duration`);
      t += rel[1] === '-' ? -d : d;
    }
    if (rel[3]) {
      t = roundDown(t, rel[3], zone);
      if (isEnd) t = roundDown(t + (UNIT_MS[rel[3]] * 1.01), rel[3], zone) - 1;
    }
    return t;
  }
  if (/[zZ]|[+-]\d\d:?\d\d$/.test(s)) {
    const parsed = Date.parse(s);
    if (!Number.isNaN(parsed)) return parsed;
  }
  const wall = Date.parse(/^\d{4}-\d\d-\d\d$/.test(s) ? `${s}T00:00:00Z` : `${s.replace(' ', 'T')}Z`);
  if (!Number.isNaN(wall)) return fromWall(wall, zone);
  throw new Error(`"${s}" is not a time: use now, now-6h, epoch milliseconds or 2026-12-07 10:00`);
}

/** A readable label for a range given as words ("Last 6 hours") or as times (shown in `zone`). */
export function rangeLabel(from, to, zone = 'UTC') {
  const m = String(from).match(/^now-(\d+)([smhdwMy])$/);
  if (m && to === 'now') {
    const names = { s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week', M: 'month', y: 'year' };
    return `Last ${m[1]} ${names[m[2]]}${m[1] === '1' ? '' : 's'}`;
  }
  const show = (v) => (/^\d{10,}$/.test(v) ? formatTime(Number(v), zone, 'minute') : v);
  return `${show(from)} to ${show(to)}`;
}

export const QUICK_RANGES = ['now-5m', 'now-15m', 'now-1h', 'now-3h', 'now-6h', 'now-12h', 'now-24h', 'now-2d', 'now-7d'];
export const REFRESH_CHOICES = ['5s', '10s', '30s', '1m', '5m', '15m', '30m', '1h'];
