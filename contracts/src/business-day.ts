const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether `timeZone` is an IANA zone this runtime knows (a warehouse's zone is checked before it is stored). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** A calendar day (YYYY-MM-DD) moved by whole days. */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The business day (YYYY-MM-DD) an instant belongs to in a warehouse's time zone: a receipt posted at 23:30 in
 * Los Angeles belongs to that day there, not to the next UTC day. An unknown zone counts as UTC.
 */
export function businessDay(timeZone: string, at: Date | string = new Date()): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: isTimeZone(timeZone) ? timeZone : 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, format);
  }
  return format.format(typeof at === 'string' ? new Date(at) : at);
}

/** The calendar month holding a day: its first and last days (YYYY-MM-DD). */
export function monthOfDay(day: string): { from: string; to: string } {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return { from: `${day.slice(0, 8)}01`, to: new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10) };
}
