import { REPORT_JOB_MAX_DAYS, REPORT_JOB_MAX_RANGE_MESSAGE, REPORT_MAX_DAYS, REPORT_MAX_RANGE_MESSAGE, type ReportPreset } from '@bolx/contracts';
import { addDays, businessDay } from '../../platform/business-day.js';
import { badRequest } from '../../platform/errors.js';

const DAY_MS = 864e5;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00.000Z`);
export const daysBetween = (from: string, to: string) => Math.round((dayMs(to) - dayMs(from)) / DAY_MS);

/**
 * The business days (inclusive) a report covers: a preset counted from today in `zone` (the chosen warehouse's, UTC
 * for all), or the custom from/to. A range longer than REPORT_MAX_DAYS is refused, naming the limit.
 */
export interface RangeLimit { days: number; message: string }
export const INTERACTIVE_LIMIT: RangeLimit = { days: REPORT_MAX_DAYS, message: REPORT_MAX_RANGE_MESSAGE };
/** A report run as a background job reads a longer range (its export is kept for download, no one waits on it). */
export const JOB_LIMIT: RangeLimit = { days: REPORT_JOB_MAX_DAYS, message: REPORT_JOB_MAX_RANGE_MESSAGE };

export function resolveRange(f: { preset?: ReportPreset; fromDate?: string; toDate?: string }, zone: string, now = new Date(), limit: RangeLimit = INTERACTIVE_LIMIT): { from: string; to: string } {
  const today = businessDay(zone, now);
  const month = today.slice(0, 7);
  let range: { from: string; to: string };
  switch (f.preset ?? 'last30') {
    case 'today': range = { from: today, to: today }; break;
    case 'yesterday': range = { from: addDays(today, -1), to: addDays(today, -1) }; break;
    case 'last7': range = { from: addDays(today, -6), to: today }; break;
    case 'last30': range = { from: addDays(today, -29), to: today }; break;
    case 'thisMonth': range = { from: `${month}-01`, to: today }; break;
    case 'lastMonth': {
      const first = `${month}-01`;
      const lastOfPrevious = addDays(first, -1);
      range = { from: `${lastOfPrevious.slice(0, 7)}-01`, to: lastOfPrevious };
      break;
    }
    case 'last12Months': range = { from: addDays(today, -364), to: today }; break;
    case 'custom': range = { from: f.fromDate!, to: f.toDate! }; break;
  }
  // From/to given with another preset narrow nothing: the preset wins, except that explicit dates mean custom.
  if (f.preset !== 'custom' && f.fromDate && f.toDate) range = { from: f.fromDate, to: f.toDate };
  if (Number.isNaN(dayMs(range.from)) || Number.isNaN(dayMs(range.to))) throw badRequest('Not a date', { fromDate: 'Use YYYY-MM-DD' });
  if (daysBetween(range.from, range.to) + 1 > limit.days) throw badRequest(limit.message, { toDate: limit.message });
  return range;
}

/** Every day of a range, in order. */
export function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** A day's bucket: itself, the Monday of its ISO week, or its month. */
export function bucketOf(day: string, group: 'day' | 'week' | 'month'): string {
  if (group === 'day') return day;
  if (group === 'month') return day.slice(0, 7);
  const weekday = (new Date(dayMs(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The buckets of a range, in order, each once. */
export function bucketsOf(from: string, to: string, group: 'day' | 'week' | 'month'): string[] {
  return [...new Set(daysOf(from, to).map((d) => bucketOf(d, group)))];
}
