import type { AssistantTimeRange } from '@bolx/contracts';
import { addDays, businessDay } from '../../platform/business-day.js';
import { resolveRange } from '../reports/report-range.js';

/**
 * The business days (inclusive) a chat time range covers in the warehouse's zone: yesterday; last week is the
 * Monday-to-Sunday week before this one; last month is the calendar month before this one. A typed question may
 * also ask for this week (Monday to today) or this month (the 1st to today).
 */
export function assistantRange(range: AssistantTimeRange, zone: string, now = new Date()): { from: string; to: string } {
  if (range === 'yesterday') return resolveRange({ preset: 'yesterday' }, zone, now);
  if (range === 'last month') return resolveRange({ preset: 'lastMonth' }, zone, now);
  if (range === 'this month') return resolveRange({ preset: 'thisMonth' }, zone, now);
  const today = businessDay(zone, now);
  const weekday = (new Date(`${today}T00:00:00.000Z`).getUTCDay() + 6) % 7; // Monday 0
  if (range === 'this week') return { from: addDays(today, -weekday), to: today };
  const monday = addDays(today, -weekday - 7);
  return { from: monday, to: addDays(monday, 6) };
}
