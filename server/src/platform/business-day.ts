import { businessDay, isTimeZone } from '@bolx/contracts';
import type { Executor } from '../db/schema.js';

// The day rules live in contracts: the web app's default days are the warehouse's day, counted as the server counts it.
export { addDays, businessDay, isTimeZone } from '@bolx/contracts';

const HOUR_MS = 3600_000;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** A zone's offset from UTC in minutes at an instant (UTC for an unknown zone). */
export function offsetMinutes(timeZone: string, ms: number): number {
  let format = offsetFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: isTimeZone(timeZone) ? timeZone : 'UTC', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    offsetFormatters.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return Math.round((wall - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/**
 * A zone's offsets over [from, until): each with the instant it lasts until (the last one: `until`). Offsets change
 * a few times a year at most, found by stepping 6 hours and narrowing each change down to the minute.
 */
export function offsetSegments(timeZone: string, from: number, until: number): { until: number; minutes: number }[] {
  const STEP = 6 * HOUR_MS;
  const out: { until: number; minutes: number }[] = [];
  let current = offsetMinutes(timeZone, from);
  for (let t = from; t < until; t += STEP) {
    const next = Math.min(t + STEP, until);
    if (offsetMinutes(timeZone, next) === current) continue;
    let lo = t;
    let hi = next; // the offset at lo is current, at hi it is not
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 2 / 60_000) * 60_000;
      if (offsetMinutes(timeZone, mid) === current) lo = mid;
      else hi = mid;
    }
    out.push({ until: hi, minutes: current });
    current = offsetMinutes(timeZone, hi);
  }
  out.push({ until, minutes: current });
  return out;
}

/**
 * A UTC range holding business day `day` (YYYY-MM-DD) in every time zone (offsets run from UTC−12 to UTC+14;
 * the margin also covers an hour of DST): an index-friendly bound to put beside a per-zone test of the day, which
 * alone would read every row.
 */
export function dayInAnyZone(day: string): { from: string; until: string } {
  const midnight = Date.parse(`${day}T00:00:00.000Z`);
  return { from: new Date(midnight - 16 * HOUR_MS).toISOString(), until: new Date(midnight + (24 + 16) * HOUR_MS).toISOString() };
}

const TTL_MS = 60_000;

/** Since 2000 every zone's offset is whole minutes, so a zone's day is the same all through a minute. */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(2000, 0, 1);
const lastDays = new Map<string, { minute: number; day: string }>();

/**
 * businessDay, remembered per zone for the minute last asked about: every posting and allocation asks for the day
 * now, and formatting it in a zone costs more than some of their statements.
 */
function dayInMinute(timeZone: string, at: Date | string): string {
  const ms = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (!(ms >= WHOLE_MINUTE_OFFSETS_SINCE)) return businessDay(timeZone, at);
  const minute = Math.floor(ms / 60_000);
  const last = lastDays.get(timeZone);
  if (last?.minute === minute) return last.day;
  const day = businessDay(timeZone, at);
  lastDays.set(timeZone, { minute, day });
  return day;
}

/**
 * Warehouses' time zones, read once a minute at most: every posting needs its warehouse's business day, and a
 * zone changes about never, so a statement per posting would be waste. `forget` after a warehouse's zone changes
 * (other nodes catch up within the minute).
 */
export class WarehouseTimeZones {
  private readonly zones = new Map<number, { zone: string; until: number }>();

  constructor(private readonly db: Executor) {}

  async of(warehouseId: number, tx: Executor = this.db): Promise<string> {
    const hit = this.zones.get(warehouseId);
    if (hit && hit.until > Date.now()) return hit.zone;
    const row = await tx.selectFrom('warehouse').select('timezone').where('id', '=', warehouseId).executeTakeFirst();
    const zone = row?.timezone ?? 'UTC';
    this.zones.set(warehouseId, { zone, until: Date.now() + TTL_MS });
    return zone;
  }

  /** The business day now (or at `at`) in the warehouse's zone. */
  async dayOf(warehouseId: number, at: Date | string = new Date(), tx?: Executor): Promise<string> {
    return dayInMinute(await this.of(warehouseId, tx), at);
  }

  forget(warehouseId?: number): void {
    if (warehouseId === undefined) this.zones.clear();
    else this.zones.delete(warehouseId);
  }
}
