import { reportAsOf, type ChartData, type ReportColumn, type ReportKey, type ReportResult } from '@bolx/contracts';

type Translate = (id: string, values?: Record<string, string | number>) => string;
type Cell = string | number | null | undefined;

/** A heading or chart name the server sent in English, through the catalogue (`reports.text.<English>`). */
export const reportText = (t: Translate, english: string): string => t(`reports.text.${english}`);

/** A report's columns with their headings in the user's language. */
export function translatedColumns(t: Translate, columns: ReportColumn[]): ReportColumn[] {
  return columns.map((c) => ({ ...c, title: reportText(t, c.title) }));
}

/** A report's chart with its axis and series names in the user's language (the categories are data: kept). */
export function translatedChart(t: Translate, chart: ChartData): ChartData {
  return {
    ...chart,
    xAxis: { ...chart.xAxis, ...(chart.xAxis.name ? { name: reportText(t, chart.xAxis.name) } : {}) },
    yAxis: { ...chart.yAxis, ...(chart.yAxis.name ? { name: reportText(t, chart.yAxis.name) } : {}) },
    series: chart.series.map((s) => (s.name ? { ...s, name: reportText(t, s.name) } : s)),
  };
}

/**
 * The rows holding the search text (any case) in one of their text columns: the report screens' quick search
 * (a SKU, a lot, a client) over the rows the report answered.
 */
export function searchRows<R extends Record<string, Cell>>(rows: R[], columns: ReportColumn[], query: string): R[] {
  const q = query.trim().toLowerCase();
  if (!q) return rows;
  const text = columns.filter((c) => c.kind === 'text').map((c) => c.key);
  return rows.filter((r) => text.some((k) => String(r[k] ?? '').toLowerCase().includes(q)));
}

/** The line under the filters: the report's title and what it covers — its range, or the day it stands at. */
export function coverageLine(t: Translate, result: Pick<ReportResult, 'report' | 'fromDate' | 'toDate'>): string {
  const title = t(`reports.report.${result.report}`);
  const asOf = reportAsOf(result.report as ReportKey);
  if (asOf === 'now') return t('reports.asOfNow', { title });
  if (asOf === 'end') return t('reports.asOf', { title, day: result.toDate });
  return t('reports.range', { title, from: result.fromDate, to: result.toDate });
}

/** How a report's chart reads: whole steps on the y axis when every value is whole (counts, units), not 0.5 orders. */
export function chartLook(chart: ChartData): { minInterval?: number } {
  return chart.series.every((s) => s.data.every((v) => Number.isInteger(v))) ? { minInterval: 1 } : {};
}
