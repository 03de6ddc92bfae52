// Numbers, durations and times as a tired person reads them: few digits, units, 24-hour UTC.

const SI = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];

/** A number in at most about 4 significant digits with an SI suffix above 1000. */
export function fmtNum(v, digits = 3) {
  if (v === null || v === undefined) return '–';
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const a = Math.abs(v);
  for (const [scale, suffix] of SI) {
    if (a >= scale) return `${trim((v / scale).toPrecision(digits))}${suffix}`;
  }
  if (a === 0) return '0';
  if (a < 1e-3) return v.toExponential(2);
  return trim(v.toPrecision(digits));
}

function trim(s) {
  return s.includes('e') || !s.includes('.') ? s : s.replace(/\.?0+$/, '');
}

/** Bytes with binary units. */
export function fmtBytes(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return fmtNum(v);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let a = Math.abs(v);
  while (a >= 1024 && i < units.length - 1) {
    a /= 1024;
    i++;
  }
  return `${trim((Math.sign(v) * a).toPrecision(3))} ${units[i]}`;
}

/** Formats a value in a chart's unit. */
export function fmtUnit(v, unit) {
  if (v === null || v === undefined || !Number.isFinite(v)) return fmtNum(v);
  switch (unit) {
    case 'bytes': return fmtBytes(v);
    case 'bytes/s': return `${fmtBytes(v)}/s`;
    case 'MiB': return fmtBytes(v * 1024 * 1024);
    case '%': return `${fmtNum(v)}%`;
    case 'ratio': return `${fmtNum(v * 100)}%`;
    case '°C': return `${fmtNum(v)}°C`;
    case 'W': return `${fmtNum(v)} W`;
    case 'MHz': return `${fmtNum(v)} MHz`;
    case 's': return fmtDuration(v);
    default: return fmtNum(v);
  }
}

/** Seconds as "3d 4h", "2h 05m", "4m 10s", "12s". */
export function fmtDuration(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return '–';
  const sign = s < 0 ? '-' : '';
  s = Math.abs(s);
  if (s < 60) return `${sign}${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) {
    const rest = Math.round(s % 60);
    return rest ? `${sign}${m}m ${String(rest).padStart(2, '0')}s` : `${sign}${m}m`;
  }
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${sign}${h}h ${String(m % 60).padStart(2, '0')}m` : `${sign}${h}h`;
  return `${sign}${Math.floor(h / 24)}d ${h % 24}h`;
}

/** Unix seconds as "2026-12-07 10:15" (UTC), or only the time when it is today. */
export function fmtTime(t, withSeconds = false) {
  if (t === null || t === undefined) return '–';
  const iso = new Date(t * 1000).toISOString();
  const today = new Date().toISOString().slice(0, 10);
  const time = iso.slice(11, withSeconds ? 19 : 16);
  return iso.slice(0, 10) === today ? time : `${iso.slice(0, 10)} ${time}`;
}

/** A step count: 12345 → "12,345". */
export function fmtStep(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return '–';
  return Math.round(s).toLocaleString('en-US');
}
