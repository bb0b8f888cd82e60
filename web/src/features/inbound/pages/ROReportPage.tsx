import { useMemo } from 'react';
import { Link } from 'react-router';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import type { ReceivingOrderSummary } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { StatusTag } from '../../../components/StatusTag';
import { R, useGetReceivingOrderFilterLabelsQuery, useGetROReportQuery } from '../inbound-api';
import { roDetailPath } from '../inbound-model';
import { useRoPartyColumns, useRoQuantityColumns } from './RoListPage';
import '../inbound.css';

/** /ROReport: one row per receiving order with its expected, received, damaged, over, short and put-away totals. */
export default function ROReportPage() {
  const t = useT();
  const intl = useIntl();
  const { data: filters } = useGetReceivingOrderFilterLabelsQuery();
  const quantities = useRoQuantityColumns();
  const parties = useRoPartyColumns();
  const when = (v: string | null) => (v ? intl.formatDate(v, { dateStyle: 'medium' }) : '—');
  const columns = useMemo<ColumnsType<ReceivingOrderSummary>>(() => [
    { key: 'roNumber', dataIndex: 'roNumber', title: t('inbound.col.roNumber'), sorter: true, fixed: 'left', render: (v: string, o) => <Link to={roDetailPath(o.receivingOrderId)}>{v}</Link> },
    { key: 'status', dataIndex: 'status', title: t('inbound.col.status'), sorter: true, render: (s: ReceivingOrderSummary['status']) => <StatusTag kind="RECEIVING_ORDER" status={s} /> },
    ...parties,
    { key: 'expectedDeliveryDate', dataIndex: 'expectedDeliveryDate', title: t('inbound.col.expectedDeliveryDate'), sorter: true },
    { key: 'lineCount', dataIndex: 'lineCount', title: t('inbound.col.lineCount'), align: 'right' },
    ...quantities,
    { key: 'receivedAt', dataIndex: 'receivedAt', title: t('inbound.col.firstReceipt'), render: when },
    { key: 'finalizedAt', dataIndex: 'finalizedAt', title: t('inbound.col.finalizedAt'), render: when },
  // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [t, intl, quantities, parties]);
  return (
    <DataTablePage<ReceivingOrderSummary>
      title={t('routes.ROReport')}
      subtitle={t('inbound.reports.summaryText')}
      rowKey="receivingOrderId"
      columns={columns}
      useList={useGetROReportQuery}
      filters={filters}
      searchPlaceholder={t('inbound.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: `${R}/DownloadROReport`, fileName: 'ro-report.xlsx' }}
    />
  );
}
