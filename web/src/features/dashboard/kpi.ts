/** A KPI value as shown: '—' when the server has no figure yet (null), else a grouped number. */
export const NO_VALUE = '—';

export function formatKpi(value: number | null | undefined, locale = 'en-US'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  return value.toLocaleString(locale, { maximumFractionDigits: 0 });
}

/** Where a tile of a report's figure opens: the report's screen with that report and the tile's range chosen. */
export function reportLink(screen: string, report: string, preset = 'last7'): string {
  return `${screen}?${new URLSearchParams({ report, preset }).toString()}`;
}

/** Hours as the dashboard shows them: one decimal (a median of 6.25 h reads 6.3). */
export function formatHours(hours: number | null | undefined, locale = 'en-US'): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours)) return NO_VALUE;
  return hours.toLocaleString(locale, { minimumFractionDigits: 0, maximumFractionDigits: 1 });
}
