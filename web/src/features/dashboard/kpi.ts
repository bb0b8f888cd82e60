/** A KPI value as shown: '—' when the server has no figure yet (null), else a grouped number. */
export const NO_VALUE = '—';

export function formatKpi(value: number | null | undefined, locale = 'en-US'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  return value.toLocaleString(locale, { maximumFractionDigits: 0 });
}
