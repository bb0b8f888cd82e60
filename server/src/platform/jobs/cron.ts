/**
 * A small cron ("m h dom mon dow") for schedules, read in a warehouse's time zone. Fields take `*`, numbers, ranges
 * `a-b`, lists `a,b` and steps `*\/n` / `a-b/n`; day of week 0–7 with 0 and 7 for Sunday. As in cron, when both
 * day of month and day of week are restricted a day matching either runs. A local time skipped by a DST change
 * does not run that day; a time repeated by one runs at its first occurrence.
 */
export interface Cron {
  source: string;
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  daysOfWeek: ReadonlySet<number>;
  domRestricted: boolean;
  dowRestricted: boolean;
}

function parseField(text: string, min: number, max: number, name: string): { values: Set<number>; restricted: boolean } {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`Bad cron ${name} field '${text}'`);
    const step = m[4] === undefined ? 1 : Number(m[4]);
    let from = min;
    let to = max;
    if (m[1] !== '*') {
      from = Number(m[2]);
      to = m[3] === undefined ? (m[4] === undefined ? from : max) : Number(m[3]);
    }
    if (step < 1 || from < min || to > max || from > to) throw new Error(`Bad cron ${name} field '${text}' (${min}-${max})`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, restricted: text !== '*' };
}

export function parseCron(source: string): Cron {
  const fields = source.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`Bad cron '${source}': expected 5 fields "m h dom mon dow"`);
  const dow = parseField(fields[4], 0, 7, 'day-of-week');
  if (dow.values.delete(7)) dow.values.add(0);
  const dom = parseField(fields[2], 1, 31, 'day-of-month');
  return {
    source,
    minutes: parseField(fields[0], 0, 59, 'minute').values,
    hours: parseField(fields[1], 0, 23, 'hour').values,
    daysOfMonth: dom.values,
    months: parseField(fields[3], 1, 12, 'month').values,
    daysOfWeek: dow.values,
    domRestricted: dom.restricted,
    dowRestricted: dow.restricted,
  };
}

interface Wall { y: number; mo: number; d: number; h: number; mi: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallOf(instant: number, timeZone: string): Wall {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return { y: Number(p.year), mo: Number(p.month), d: Number(p.day), h: Number(p.hour) % 24, mi: Number(p.minute) };
}

/** The instant a local wall time names in a zone, or null when that time does not exist there (a DST gap). */
function instantOf(w: Wall, timeZone: string): number | null {
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi);
  const offsetAt = (t: number) => { const v = wallOf(t, timeZone); return Date.UTC(v.y, v.mo - 1, v.d, v.h, v.mi) - t; };
  // Two candidates (the offsets before and after a change); the earlier that reads back as the wall time wins.
  const candidates = [asUtc - offsetAt(asUtc - 86_400_000), asUtc - offsetAt(asUtc), asUtc - offsetAt(asUtc + 86_400_000)].sort((a, b) => a - b);
  for (const t of candidates) {
    const v = wallOf(t, timeZone);
    if (v.y === w.y && v.mo === w.mo && v.d === w.d && v.h === w.h && v.mi === w.mi) return t;
  }
  return null;
}

function dayMatches(c: Cron, y: number, mo: number, d: number): boolean {
  if (!c.months.has(mo)) return false;
  const dow = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
  const domOk = c.daysOfMonth.has(d);
  const dowOk = c.daysOfWeek.has(dow);
  if (c.domRestricted && c.dowRestricted) return domOk || dowOk;
  return domOk && dowOk;
}

const SEARCH_DAYS = 366 * 5; // "29 2 * * *"-like expressions recur within years; past that, a cron that never runs

/**
 * The slot a cron fires at nearest to `from` in one direction, as a UTC instant (ms): the latest at or before it
 * (`dir` -1) or the earliest after it (`dir` 1). Null when there is none within years.
 */
export function cronSlot(c: Cron, timeZone: string, from: number, dir: 1 | -1): number | null {
  const start = wallOf(from, timeZone);
  const hours = [...c.hours].sort((a, b) => (a - b) * dir);
  const minutes = [...c.minutes].sort((a, b) => (a - b) * dir);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const day = new Date(Date.UTC(start.y, start.mo - 1, start.d + i * dir));
    const y = day.getUTCFullYear(); const mo = day.getUTCMonth() + 1; const d = day.getUTCDate();
    if (!dayMatches(c, y, mo, d)) continue;
    for (const h of hours) {
      // On the first day, wall times on the wrong side of `from` cannot be the answer: skip them unconverted.
      if (i === 0 && (h - start.h) * dir < 0) continue;
      for (const mi of minutes) {
        if (i === 0 && h === start.h && (mi - start.mi) * dir < 0) continue;
        const t = instantOf({ y, mo, d, h, mi }, timeZone);
        if (t === null) continue;
        if (dir === -1 ? t <= from : t > from) return t;
      }
    }
  }
  return null;
}

export const previousSlot = (c: Cron, timeZone: string, at: number) => cronSlot(c, timeZone, at, -1);
export const nextSlot = (c: Cron, timeZone: string, at: number) => cronSlot(c, timeZone, at, 1);
