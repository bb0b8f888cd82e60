import { useMemo } from 'react';
import { Link } from 'react-router';
import { Typography } from 'antd';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import type { FilterLabel } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { R, useGetReceivingOrderFilterLabelsQuery, useGetROInwardQuery, type RoInwardRow } from '../inbound-api';
import { roDetailPath } from '../inbound-model';
import '../inbound.css';

/** /ROInward: the inward log, one row per receipt at the dock; its date range is when goods arrived. */
export default function ROInwardPage() {
  const t = useT();
  const intl = useIntl();
  const { data: labels } = useGetReceivingOrderFilterLabelsQuery();
  // The same filters as the RO list, but here the dates are the receipt's.
  const filters = useMemo<FilterLabel[] | undefined>(() => labels?.map((f) => (
    f.key === 'fromDate' ? { ...f, label: t('inbound.reports.receivedFrom') } : f.key === 'toDate' ? { ...f, label: t('inbound.reports.receivedTo') } : f
  )), [labels, t]);
  const columns = useMemo<ColumnsType<RoInwardRow>>(() => [
    { key: 'receivedAt', dataIndex: 'receivedAt', title: t('inbound.col.receivedAt'), sorter: true, fixed: 'left', render: (v: string) => intl.formatDate(v, { dateStyle: 'medium', timeStyle: 'short' }) },
    { key: 'roNumber', dataIndex: 'roNumber', title: t('inbound.col.roNumber'), sorter: true, render: (v: string, r) => <Link to={roDetailPath(r.receivingOrderId)}>{v}</Link> },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inbound.col.sku'), sorter: true },
    { key: 'skuDescription', dataIndex: 'skuDescription', title: t('inbound.col.description'), ellipsis: true },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inbound.col.location'), sorter: true },
    { key: 'lot', dataIndex: 'lot', title: t('inbound.col.lot'), sorter: true, render: (v: string) => v || '—' },
    { key: 'expiryDate', dataIndex: 'expiryDate', title: t('inbound.col.expiryDate'), sorter: true, render: (v: string | null) => v ?? '—' },
    { key: 'pallet', dataIndex: 'pallet', title: t('inbound.col.pallet'), render: (v: string) => v || '—' },
    { key: 'carton', dataIndex: 'carton', title: t('inbound.col.carton'), render: (v: string) => v || '—' },
    { key: 'quantity', dataIndex: 'quantity', title: t('inbound.col.good'), align: 'right', render: (v: number) => intl.formatNumber(v) },
    {
      key: 'damagedQuantity', dataIndex: 'damagedQuantity', title: t('inbound.col.damagedQuantity'), align: 'right',
      render: (v: number, r) => (v > 0 ? <Typography.Text type="danger">{intl.formatNumber(v)}{r.damagedLocationCode ? ` → ${r.damagedLocationCode}` : ''}</Typography.Text> : 0),
    },
    { key: 'supplier', dataIndex: 'supplier', title: t('inbound.col.supplier') },
    { key: 'customerName', dataIndex: 'customerName', title: t('inbound.col.customer') },
    { key: 'receivedBy', dataIndex: 'receivedBy', title: t('inbound.col.by'), render: (v: string | null) => v ?? '—' },
  ], [t, intl]);
  return (
    <DataTablePage<RoInwardRow>
      title={t('routes.ROInward')}
      subtitle={t('inbound.reports.inwardText')}
      rowKey="uniqueid"
      columns={columns}
      useList={useGetROInwardQuery}
      filters={filters}
      searchPlaceholder={t('inbound.reports.inwardSearch')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: `${R}/DownloadROInward`, fileName: 'ro-inward.xlsx' }}
    />
  );
}
