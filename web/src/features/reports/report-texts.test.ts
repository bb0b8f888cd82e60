import { describe, expect, it } from 'vitest';
import { REPORTS, type ReportColumn, type ReportKey } from '@bolx/contracts';
import { resolveMessage } from '../../lib/i18n/fallback';
import { MESSAGES } from '../../lib/i18n/catalog';
import { chartLook, coverageLine, searchRows, translatedChart, translatedColumns } from './report-texts';
import './messages';

/** The app's translate over the live catalogue, with `{name}` values filled in (react-intl's simple case). */
const t = (id: string, values: Record<string, string | number> = {}) =>
  resolveMessage(MESSAGES, id).replace(/\{(\w+)\}/g, (_m, k: string) => String(values[k] ?? `{${k}}`));
/** A catalogue as another language would give it: every text marked, to see which texts pass through it. */
const marked = (id: string, values?: Record<string, string | number>) => `«${t(id, values)}»`;

const columns: ReportColumn[] = [
  { key: 'sku', title: 'SKU', kind: 'text' }, { key: 'lot', title: 'Lot', kind: 'text' }, { key: 'onHand', title: 'On hand', kind: 'number' },
];
const rows = [
  { sku: 'TSHIRT-RED', lot: 'L1', onHand: 12 }, { sku: 'MUG-BLUE', lot: 'red-2', onHand: 5 }, { sku: 'CAP', lot: null, onHand: 123 },
];

describe('report texts', () => {
  it('every report screen text is in the catalogue: titles, group and range labels', () => {
    for (const key of Object.keys(REPORTS) as ReportKey[]) expect(MESSAGES[`reports.report.${key}`], key).toBe(REPORTS[key].title);
    for (const group of new Set(Object.values(REPORTS).flatMap((r) => [...r.groups]))) expect(MESSAGES[`reports.group.${group}`], group).toBeTruthy();
    expect(t('reports.filter.groupOption', { group: t('reports.group.sku') })).toBe('By SKU');
    expect(t('reports.preset.last12Months')).toBe('Last 12 months');
  });

  it('headings and chart names pass through the catalogue by their English text', () => {
    expect(translatedColumns(marked, columns).map((c) => c.title)).toEqual(['«SKU»', '«Lot»', '«On hand»']);
    expect(MESSAGES['reports.text.Units put away']).toBe('Units put away');
    const chart = translatedChart(marked, { type: 'bar', xAxis: { name: 'SKU', data: ['TSHIRT-RED'] }, yAxis: { name: 'Units' }, series: [{ name: 'On hand', data: [1] }, { data: [2] }] });
    expect(chart).toEqual({ type: 'bar', xAxis: { name: '«SKU»', data: ['TSHIRT-RED'] }, yAxis: { name: '«Units»' }, series: [{ name: '«On hand»', data: [1] }, { data: [2] }] });
    // A heading made at run time (a task type's hours) has no entry and reads as itself.
    expect(translatedColumns(t, [{ key: 'kind:pick', title: 'pick', kind: 'hours' }])[0].title).toBe('pick');
  });

  it('the quick search keeps the rows holding the text in a text column, in any case', () => {
    expect(searchRows(rows, columns, '')).toBe(rows);
    expect(searchRows(rows, columns, ' red ').map((r) => r.sku)).toEqual(['TSHIRT-RED', 'MUG-BLUE']);
    expect(searchRows(rows, columns, 'cap').map((r) => r.sku)).toEqual(['CAP']);
    // Numbers are not searched: '12' is in no SKU or lot.
    expect(searchRows(rows, columns, '12')).toEqual([]);
  });

  it('the coverage line names the range, or the day a snapshot stands at', () => {
    expect(coverageLine(t, { report: 'receipts-per-day', fromDate: '2026-01-05', toDate: '2026-01-11' })).toBe('Receipts per day · 2026-01-05 to 2026-01-11');
    expect(coverageLine(t, { report: 'stock-on-hand', fromDate: '2026-01-05', toDate: '2026-01-11' })).toBe('Stock on hand · now');
    expect(coverageLine(t, { report: 'stock-as-of', fromDate: '2026-01-05', toDate: '2026-01-11' })).toBe('Stock as of a date · as of 2026-01-11');
  });

  it('a chart of whole numbers steps its y axis by whole numbers', () => {
    expect(chartLook({ type: 'bar', xAxis: { data: ['Open'] }, yAxis: {}, series: [{ data: [3, 0] }] })).toEqual({ minInterval: 1 });
    expect(chartLook({ type: 'line', xAxis: { data: ['a'] }, yAxis: {}, series: [{ data: [3] }, { data: [95.5] }] })).toEqual({});
  });
});
