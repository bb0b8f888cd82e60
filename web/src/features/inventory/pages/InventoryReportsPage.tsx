import { useMemo, useState } from 'react';
import { Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { FilterLabel } from '@bolx/contracts';
import { DataTablePage, type ListQueryHook } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope, type ListRequest } from '../../../components/data-table/list-args';
import type { Translate } from '../../../lib/i18n/use-t';
import { useT } from '../../../lib/i18n/use-t';
import { formatDateTime } from '../format';
import { useGetInventoryReportQuery, type ReportName, type ReportRows } from '../inventory-api';
import '../inventory.css';

const REPORTS: ReportName[] = ['OnHandBySku', 'OnHandByLocation', 'OnHandByLot', 'OnHandByPallet', 'Availability', 'Aging', 'StockAsOf'];
const FILE: Record<ReportName, string> = {
  OnHandBySku: 'on-hand-by-sku', OnHandByLocation: 'on-hand-by-location', OnHandByLot: 'on-hand-by-lot', OnHandByPallet: 'on-hand-by-pallet',
  Availability: 'availability', Aging: 'aging', StockAsOf: 'stock-as-of',
};
const today = () => new Date().toISOString().slice(0, 10);

/** The report's list hook; stock as of a date always asks for a date (today unless one is chosen). */
function reportHook(report: ReportName): ListQueryHook<ReportRows[ReportName]> {
  return (args: ListRequest, options) => useGetInventoryReportQuery(
    { report, ...args, filters: report === 'StockAsOf' ? { asOf: today(), ...args.filters } : args.filters },
    options,
  );
}
const HOOKS = Object.fromEntries(REPORTS.map((r) => [r, reportHook(r)])) as Record<ReportName, ListQueryHook<ReportRows[ReportName]>>;

type AnyRow = Record<string, unknown>;
type Column = ColumnsType<AnyRow>[number];
const num = (key: string, title: string): Column => ({ key, dataIndex: key, title, align: 'right' });
const dash = (v: unknown) => (v === '' || v == null ? '—' : String(v));
const text = (key: string, title: string, render: (v: unknown) => string = dash): Column => ({ key, dataIndex: key, title, render: (v: unknown) => render(v) });

function columnsOf(report: ReportName, t: Translate): ColumnsType<AnyRow> {
  const f = (k: string) => t(`inventory.fields.${k}`);
  const names = [text('warehouseName', f('warehouse')), text('customerName', f('customer'))];
  const totals = [num('onHand', f('onHand')), num('allocated', f('allocated')), num('available', f('available'))];
  switch (report) {
    case 'OnHandBySku': return [text('skuCode', f('sku')), text('skuDescription', f('description')), ...names, num('locationCount', f('locationCount')), ...totals];
    case 'OnHandByLocation': return [text('locationCode', f('location')), text('locationType', f('locationType')), ...names, num('skuCount', f('skuCount')), ...totals];
    case 'OnHandByLot': return [text('skuCode', f('sku')), text('lot', f('lot')), text('expiryDate', f('expiryDate')), ...names, num('locationCount', f('locationCount')), ...totals];
    case 'OnHandByPallet': return [text('pallet', f('pallet')), text('locationCode', f('location')), ...names, num('skuCount', f('skuCount')), num('onHand', f('onHand')), num('allocated', f('allocated'))];
    case 'Availability': return [text('skuCode', f('sku')), text('skuDescription', f('description')), ...names, ...totals, num('expired', f('expired')), num('allocatable', f('allocatable'))];
    case 'Aging': return [text('skuCode', f('sku')), text('locationCode', f('location')), text('lot', f('lot')), text('pallet', f('pallet')), ...names,
      text('receivedAt', f('receivedAt'), (v) => formatDateTime(v as string | null)), num('ageDays', f('ageDays')), text('bucket', f('bucket')), num('onHand', f('onHand'))];
    case 'StockAsOf': return [text('skuCode', f('sku')), text('locationCode', f('location')), text('lot', f('lot')), text('pallet', f('pallet')), ...names, num('onHand', f('onHand'))];
  }
}

const rowKeyOf = (report: ReportName) => (r: AnyRow) => {
  if ('uniqueid' in r) return String(r.uniqueid);
  const parts = [r.warehouseId, r.customerId, r.skuId, r.locationId, r.lot, r.pallet];
  return `${report}:${parts.map((p) => p ?? '').join(':')}`;
};

/** /InventoryReports: on hand by SKU, location, lot and pallet; availability; aging; stock as of a date — each exportable. */
export default function InventoryReportsPage() {
  const t = useT();
  const [report, setReport] = useState<ReportName>('OnHandBySku');
  const columns = useMemo(() => columnsOf(report, t), [report, t]);
  const filters: FilterLabel[] = report === 'StockAsOf' ? [{ key: 'asOf', label: t('inventory.reports.asOf'), type: 'date' }] : [];
  return (
    <DataTablePage<AnyRow>
      key={report}
      title={t('routes.InventoryReports')}
      subtitle={t(`inventory.reports.${report}.hint`)}
      toolbar={
        <Tabs className="bolx-inventory__tabs" activeKey={report} onChange={(k) => setReport(k as ReportName)}
          items={REPORTS.map((r) => ({ key: r, label: t(`inventory.reports.${r}`) }))} />
      }
      rowKey={rowKeyOf(report)}
      columns={columns}
      useList={HOOKS[report] as unknown as ListQueryHook<AnyRow>}
      filters={filters}
      initial={report === 'StockAsOf' ? { filters: { asOf: today() } } : undefined}
      searchPlaceholder={t('inventory.reports.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: `Warehouse/InventoryReport/Download${report}Excel`, fileName: `${FILE[report]}.xlsx` }}
    />
  );
}
