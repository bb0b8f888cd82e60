import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Typography } from 'antd';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { StatusTag } from '../../../components/StatusTag';
import { R, useGetReceivingOrderFilterLabelsQuery, useGetROReportDetailsQuery, type RoDetailRow } from '../inbound-api';
import { roDetailPath } from '../inbound-model';
import '../inbound.css';

/** /ROReportDetails: one row per RO line — what was expected, received, damaged, over, short and put away. */
export default function ROReportDetailsPage() {
  const t = useT();
  const intl = useIntl();
  const { data: filters } = useGetReceivingOrderFilterLabelsQuery();
  // ?roNumber= lists that receiving order's lines (the invoice audit's source links land here).
  const [params] = useSearchParams();
  const roNumber = params.get('roNumber');
  const columns = useMemo<ColumnsType<RoDetailRow>>(() => {
    const qty = (key: keyof RoDetailRow, tone?: 'warning' | 'danger') => ({
      key, dataIndex: key, title: t(`inbound.col.${key}`), align: 'right' as const,
      render: (v: number) => (tone && v > 0 ? <Typography.Text type={tone}>{intl.formatNumber(v)}</Typography.Text> : intl.formatNumber(v)),
    });
    return [
      { key: 'roNumber', dataIndex: 'roNumber', title: t('inbound.col.roNumber'), sorter: true, fixed: 'left', render: (v: string, r) => <Link to={roDetailPath(r.receivingOrderId)}>{v}</Link> },
      { key: 'lineNo', dataIndex: 'lineNo', title: '#', align: 'right' },
      { key: 'skuCode', dataIndex: 'skuCode', title: t('inbound.col.sku'), sorter: true },
      { key: 'skuDescription', dataIndex: 'skuDescription', title: t('inbound.col.description'), ellipsis: true },
      { key: 'status', dataIndex: 'status', title: t('inbound.col.status'), sorter: true, render: (s: RoDetailRow['status']) => <StatusTag kind="RECEIVING_ORDER" status={s} /> },
      { key: 'supplier', dataIndex: 'supplier', title: t('inbound.col.supplier'), sorter: true },
      { key: 'customerName', dataIndex: 'customerName', title: t('inbound.col.customer') },
      { key: 'expectedDeliveryDate', dataIndex: 'expectedDeliveryDate', title: t('inbound.col.expectedDeliveryDate'), sorter: true },
      qty('expectedQuantity'), qty('receivedQuantity'), qty('damagedQuantity', 'danger'), qty('overQuantity', 'warning'), qty('shortQuantity', 'warning'),
      qty('putawayQuantity'), qty('awaitingPutaway'),
    ];
  }, [t, intl]);
  return (
    <DataTablePage<RoDetailRow>
      title={t('routes.ROReportDetails')}
      subtitle={t('inbound.reports.detailsText')}
      rowKey="uniqueid"
      columns={columns}
      useList={useGetROReportDetailsQuery}
      filters={filters}
      searchPlaceholder={t('inbound.reports.detailsSearch')}
      scopeFilters={warehouseAndCustomerScope}
      initial={roNumber ? { searchQuery: roNumber } : undefined}
      excel={{ url: `${R}/DownloadROReportDetails`, fileName: 'ro-report-details.xlsx' }}
    />
  );
}
