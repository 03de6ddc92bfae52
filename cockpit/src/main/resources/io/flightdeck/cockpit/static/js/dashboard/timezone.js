// The dashboard's time zone as Grafana names it: "utc", "browser" or "" (the browser's own), or an
// IANA name such as "Europe/Berlin"; the URL's timezone= overrides the dashboard's. Times are shown
// in it (axes, legends, tables, the time picker) and absolute times typed without an offset are
// read in it. Intl.DateTimeFormat does the zone arithmetic, so daylight saving time is right.

const formatters = new Map();

function formatter(zone) {
  const key = zone || '';
  if (!formatters.has(key)) {
    formatters.set(key, new Intl.DateTimeFormat('en-US', {
      timeZone: zone || undefined, hourCycle: 'h23',
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    }));
  }
  return formatters.get(key);
}

/**
 * The zone to draw in: {zone, name, problem}. `zone` is an IANA name, or null for the
 * browser's; `problem` says why a name that is not a zone was set aside (the browser's is used).
 */
export function resolveZone(urlValue, dashboardValue) {
  const text = String(urlValue ?? dashboardValue ?? '').trim();
  if (text === '' || text.toLowerCase() === 'browser') return { zone: null, name: 'browser' };
  if (text.toLowerCase() === 'utc') return { zone: 'UTC', name: 'utc' };
  try {
    formatter(text).format(0);
    return { zone: text, name: text };
  } catch (e) {
    formatters.delete(text);
    return { zone: null, name: 'browser', problem: `time zone "${text}" is not one this browser knows: times are shown in the browser's zone` };
  }
}

/** The wall-clock fields of `ms` in `zone`: {year, month (1-12), day, hour, minute, second}. */
export function wallClock(ms, zone) {
  const out = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** How far `zone`'s clock is ahead of UTC at the instant `ms`, in ms. */
export function offsetMs(ms, zone) {
  const w = wallClock(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (Math.floor(ms / 1000) * 1000);
}

/** The instant whose wall clock in `zone` reads `wallMs` (wall-clock fields encoded as UTC ms). */
export function fromWall(wallMs, zone) {
  let guess = wallMs - offsetMs(wallMs, zone);
  // Once more at the guess: right across a daylight-saving change.
  guess = wallMs - offsetMs(guess, zone);
  return guess;
}

const pad = (n) => String(n).padStart(2, '0');

/**
 * `ms` as text in `zone`. style: "full" 2026-12-07 10:00:00, "minute" 2026-12-07 10:00,
 * "dayMinute" 12-07 10:00, "second" 10:00:00, "clock" 10:00.
 */
export function formatTime(ms, zone, style = 'full') {
  const w = wallClock(ms, zone);
  const date = `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  const hm = `${pad(w.hour)}:${pad(w.minute)}`;
  switch (style) {
    case 'minute': return `${date} ${hm}`;
    case 'dayMinute': return `${pad(w.month)}-${pad(w.day)} ${hm}`;
    case 'second': return `${hm}:${pad(w.second)}`;
    case 'clock': return hm;
    default: return `${date} ${hm}:${pad(w.second)}`;
  }
}

/** A short label for the zone: "UTC", "Europe/Berlin (UTC+01:00)", "browser (UTC+00:00)". */
export function zoneLabel(resolved, atMs = Date.now()) {
  if (resolved.zone === 'UTC') return 'UTC';
  const off = Math.round(offsetMs(atMs, resolved.zone) / 60000);
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `${resolved.zone || 'Browser time'} (UTC${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)})`;
}

/**
 * `ms` in one of Grafana's date units, on the wall clock of `zone` as Grafana's are on the
 * dashboard's: dateTimeAsIso 2026-12-07 10:00:00, dateTimeAsUS 12/07/2026 10:00:00 am, their
 * "NoDateIfToday" forms only the time when the day is today there, dateTimeAsLocal and
 * dateTimeAsSystem as ISO, dateTimeFromNow how long ago (or in how long) it is. Null for another unit.
 */
export function formatDateUnit(ms, unit, zone, now = Date.now()) {
  const w = wallClock(ms, zone);
  const today = (() => {
    const n = wallClock(now, zone);
    return n.year === w.year && n.month === w.month && n.day === w.day;
  })();
  const iso = formatTime(ms, zone);
  const hour12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  const usTime = `${hour12}:${pad(w.minute)}:${pad(w.second)} ${w.hour < 12 ? 'am' : 'pm'}`;
  switch (unit) {
    case 'dateTimeAsIso': case 'dateTimeAsLocal': case 'dateTimeAsSystem': return iso;
    case 'dateTimeAsIsoNoDateIfToday': return today ? formatTime(ms, zone, 'second') : iso;
    case 'dateTimeAsUS': return `${pad(w.month)}/${pad(w.day)}/${w.year} ${usTime}`;
    case 'dateTimeAsUSNoDateIfToday': return today ? usTime : `${pad(w.month)}/${pad(w.day)}/${w.year} ${usTime}`;
    case 'dateTimeFromNow': return fromNow(ms, now);
    default: return null;
  }
}

const SPANS = [['year', 365 * 86400], ['month', 30 * 86400], ['day', 86400], ['hour', 3600], ['minute', 60]];

/** "3 hours ago", "in 2 days", "a few seconds ago": the distance only, so no zone. */
function fromNow(ms, now) {
  const seconds = Math.round((now - ms) / 1000);
  const a = Math.abs(seconds);
  const found = SPANS.find(([, size]) => a >= size);
  const text = found ? `${Math.round(a / found[1])} ${found[0]}${Math.round(a / found[1]) === 1 ? '' : 's'}` : 'a few seconds';
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}
