import { useMemo, useState } from 'react';
import { Button, Tabs, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useIntl } from 'react-intl';
import { ORDER_STATUSES, PICK_JOB_STATUSES, type FilterLabel, type OrderStatus, type OrderSummary, type PickJobStatus, type PickJobSummary } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope, warehouseScope } from '../../../components/data-table/list-args';
import type { BatchAction } from '../../../components/data-table/batch-selection';
import { useDownload } from '../../../components/download/use-download';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { printFiles, useGetPrintJobsQuery, useGetPrintOrdersQuery } from '../batch-print-api';
import { MAX_JOBS, MAX_ORDERS, SLIP_STATUSES, idsOf, jobProgress, numbersOf, printBlock, printBody, printFileName } from '../print-model';
import '../batch-print.css';

type Tab = 'jobs' | 'orders';

/**
 * /BatchPrint: pick lists of the warehouse's pick jobs, and packing slips of jobs' orders or of orders, as PDFs.
 * Pick rows on any page (or one row's Print) and the PDF downloads, one document per job or order.
 */
export default function BatchPrintPage() {
  const t = useT();
  const [tab, setTab] = useState<Tab>('jobs');
  const tabs = (
    <Tabs className="bolx-print__tabs" activeKey={tab} onChange={(k) => setTab(k as Tab)}
      items={(['jobs', 'orders'] as const).map((k) => ({ key: k, label: t(`batchPrint.tab.${k}`) }))} />
  );
  return tab === 'jobs' ? <JobsTab toolbar={tabs} /> : <OrdersTab toolbar={tabs} />;
}

const twoLines = (main: React.ReactNode, sub: React.ReactNode) => (
  <div className="bolx-print__two-lines"><div>{main}</div><Typography.Text type="secondary">{sub || '—'}</Typography.Text></div>
);

function JobsTab({ toolbar }: { toolbar: React.ReactNode }) {
  const t = useT();
  const intl = useIntl();
  const [download, downloading] = useDownload();
  const printLists = (ids: number[], numbers: string[]) => download(printFiles.pickLists({ jobIds: ids }), printFileName('pickLists', numbers));

  const columns = useMemo<ColumnsType<PickJobSummary>>(() => [
    { key: 'jobNumber', title: t('batchPrint.col.jobNumber'), sorter: true, fixed: 'left', render: (_, j) => twoLines(<strong>{j.jobNumber}</strong>, j.waveNumber) },
    { key: 'status', dataIndex: 'status', title: t('batchPrint.col.status'), sorter: true, render: (s: PickJobStatus) => <StatusTag kind="PICK_JOB" status={s} /> },
    { key: 'strategy', title: t('batchPrint.col.strategy'), render: (_, j) => twoLines(t(`batchPrint.strategy.${j.strategy}`), j.zone) },
    {
      key: 'stops', title: t('batchPrint.col.stops'), align: 'right',
      render: (_, j) => {
        const p = jobProgress(j);
        return twoLines(intl.formatNumber(p.stops), t('batchPrint.pickedOf', { picked: intl.formatNumber(p.picked), units: intl.formatNumber(p.units) }));
      },
    },
    { key: 'assignedToName', title: t('batchPrint.col.picker'), render: (_, j) => j.assignedToName ?? <Typography.Text type="secondary">{t('batchPrint.unassigned')}</Typography.Text> },
    { key: 'createdAt', title: t('batchPrint.col.created'), sorter: true, render: (_, j) => intl.formatDate(j.createdAt, { dateStyle: 'medium', timeStyle: 'short' }) },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, j) => <Button type="link" size="small" icon={<PrinterOutlined />} loading={downloading} onClick={() => void printLists([j.jobId], [j.jobNumber])}>{t('batchPrint.printOne')}</Button>,
    },
  ], [t, intl, downloading]);

  const filters: FilterLabel[] = [
    { key: 'status', label: t('batchPrint.filter.status'), type: 'select', options: PICK_JOB_STATUSES.map((s) => ({ label: t(`floor.jobStatus.${s}`), value: s })) },
  ];
  const batchActions: BatchAction<PickJobSummary>[] = [
    {
      key: 'pickLists', label: t('batchPrint.printPickLists'), icon: <PrinterOutlined />,
      disabledReason: (target) => printBlock(idsOf(target).length, MAX_JOBS, t),
      run: (target) => printLists(idsOf(target), numbersOf(target)),
    },
    {
      key: 'packingSlips', label: t('batchPrint.printJobSlips'),
      disabledReason: (target) => printBlock(idsOf(target).length, MAX_JOBS, t),
      run: (target) => download(printFiles.packingSlips(printBody('packingSlips', 'jobs', idsOf(target))), printFileName('packingSlips', numbersOf(target))),
    },
  ];

  return (
    <DataTablePage<PickJobSummary>
      key="jobs"
      title={t('routes.BatchPrint')}
      subtitle={t('batchPrint.subtitle.jobs')}
      toolbar={toolbar}
      rowKey="jobId"
      columns={columns}
      useList={useGetPrintJobsQuery}
      filters={filters}
      searchPlaceholder={t('batchPrint.search.jobs')}
      scopeFilters={warehouseScope}
      batchActions={batchActions}
    />
  );
}

function OrdersTab({ toolbar }: { toolbar: React.ReactNode }) {
  const t = useT();
  const [download, downloading] = useDownload();
  const printSlips = (ids: number[], numbers: string[]) =>
    download(ids.length === 1 ? printFiles.packingSlip(ids[0]) : printFiles.packingSlips(printBody('packingSlips', 'orders', ids)), printFileName('packingSlips', numbers));

  const columns = useMemo<ColumnsType<OrderSummary>>(() => [
    { key: 'soNumber', title: t('batchPrint.col.soNumber'), sorter: true, fixed: 'left', render: (_, o) => twoLines(<strong>{o.soNumber}</strong>, o.referenceNumber) },
    { key: 'status', dataIndex: 'status', title: t('batchPrint.col.status'), sorter: true, render: (s: OrderStatus) => <StatusTag kind="SALES_ORDER" status={s} /> },
    { key: 'customerName', title: t('batchPrint.col.client'), sorter: true, render: (_, o) => twoLines(o.customerName, o.warehouseName) },
    { key: 'shipToName', title: t('batchPrint.col.shipTo'), sorter: true, render: (_, o) => twoLines(o.shipToName ?? '—', [o.shipToCity, o.shipToCountry].filter(Boolean).join(', ')) },
    { key: 'carrier', title: t('batchPrint.col.carrier'), render: (_, o) => twoLines(o.carrierName ?? '—', o.carrierService) },
    { key: 'lineCount', dataIndex: 'lineCount', title: t('batchPrint.col.lines'), align: 'right' },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, o) => <Button type="link" size="small" icon={<PrinterOutlined />} loading={downloading} onClick={() => void printSlips([o.orderId], [o.soNumber])}>{t('batchPrint.printOne')}</Button>,
    },
  ], [t, downloading]);

  // The floor's statuses first: those are the orders whose slips are printed.
  const statuses = [...SLIP_STATUSES, ...ORDER_STATUSES.filter((s) => !SLIP_STATUSES.includes(s))];
  const filters: FilterLabel[] = [
    { key: 'status', label: t('batchPrint.filter.status'), type: 'select', options: statuses.map((s) => ({ label: t(`outbound.status.${s}`), value: s })) },
  ];
  const batchActions: BatchAction<OrderSummary>[] = [{
    key: 'packingSlips', label: t('batchPrint.printSlips'), icon: <PrinterOutlined />,
    disabledReason: (target) => printBlock(idsOf(target).length, MAX_ORDERS, t),
    run: (target) => printSlips(idsOf(target), numbersOf(target)),
  }];

  return (
    <DataTablePage<OrderSummary>
      key="orders"
      title={t('routes.BatchPrint')}
      subtitle={t('batchPrint.subtitle.orders')}
      toolbar={toolbar}
      rowKey="orderId"
      columns={columns}
      useList={useGetPrintOrdersQuery}
      filters={filters}
      searchPlaceholder={t('batchPrint.search.orders')}
      scopeFilters={warehouseAndCustomerScope}
      batchActions={batchActions}
    />
  );
}
