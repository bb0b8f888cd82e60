import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import type { ReceivingOrderSummary } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { useCanWrite } from '../../../lib/use-can-write';
import { useMayAccess } from '../../../lib/use-access';
import { useT } from '../../../lib/i18n/use-t';
import { RoFormDrawer } from '../components/RoFormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { RoUploadDrawer } from '../components/RoUploadDrawer';
import { R, useGetReceivingOrderFilterLabelsQuery, useGetReceivingOrdersQuery } from '../inbound-api';
import { roDetailPath } from '../inbound-model';

/**
 * Who an RO is from and for, two columns of two lines: the supplier over the reference, the client over the
 * warehouse. As four columns beside the quantities the list ran past a 1440 px screen, under its Actions column.
 */
export function useRoPartyColumns(): ColumnsType<ReceivingOrderSummary> {
  const t = useT();
  return useMemo(() => {
    const twoLines = (main: string, sub: string) => (
      <div className="bolx-ro-list__two-lines">
        <div>{main}</div>
        <Typography.Text type="secondary">{sub || '—'}</Typography.Text>
      </div>
    );
    return [
      { key: 'supplier', title: t('inbound.col.supplierReference'), sorter: true, render: (_, o) => twoLines(o.supplier, o.referenceNumber) },
      { key: 'customerName', title: t('inbound.col.customerWarehouse'), sorter: true, render: (_, o) => twoLines(o.customerName, o.warehouseName) },
    ];
  }, [t]);
}

/** The quantity columns every RO table shows (list and summary report). */
export function useRoQuantityColumns(): ColumnsType<ReceivingOrderSummary> {
  const t = useT();
  const intl = useIntl();
  return useMemo(() => {
    const n = (v: number) => intl.formatNumber(v);
    const qty = (key: keyof ReceivingOrderSummary, tone?: 'warning' | 'danger') => ({
      key, dataIndex: key, title: t(`inbound.col.${key}`), align: 'right' as const,
      render: (v: number) => (tone && v > 0 ? <Typography.Text type={tone}>{n(v)}</Typography.Text> : n(v)),
    });
    return [qty('expectedQuantity'), qty('receivedQuantity'), qty('damagedQuantity', 'danger'), qty('overQuantity', 'warning'), qty('shortQuantity', 'warning'), qty('putawayQuantity')];
  }, [t, intl]);
}

/** /InBound: the receiving orders in scope, with filters, search, status tags, paging and Excel; create and upload for staff. */
export default function RoListPage() {
  const t = useT();
  const navigate = useNavigate();
  const canWrite = useCanWrite('InBound');
  const create = useFormDrawer<never>();
  const uploader = useFormDrawer<never>();
  const { data: filters } = useGetReceivingOrderFilterLabelsQuery();
  const quantities = useRoQuantityColumns();
  const parties = useRoPartyColumns();
  // The list's Excel is the RO summary report's download, which needs that report's module.
  const canExport = useMayAccess()({ module: { key: 'ROReport', permission: 'read' } });

  const columns = useMemo<ColumnsType<ReceivingOrderSummary>>(() => [
    { key: 'roNumber', dataIndex: 'roNumber', title: t('inbound.col.roNumber'), sorter: true, fixed: 'left', render: (v: string, o) => <Link to={roDetailPath(o.receivingOrderId)}>{v}</Link> },
    { key: 'status', dataIndex: 'status', title: t('inbound.col.status'), sorter: true, render: (s: ReceivingOrderSummary['status']) => <StatusTag kind="RECEIVING_ORDER" status={s} /> },
    ...parties,
    { key: 'expectedDeliveryDate', dataIndex: 'expectedDeliveryDate', title: t('inbound.col.expectedDeliveryDate'), sorter: true },
    { key: 'lineCount', dataIndex: 'lineCount', title: t('inbound.col.lineCount'), align: 'right' },
    ...quantities,
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, o) => <Button type="link" size="small" onClick={() => navigate(roDetailPath(o.receivingOrderId))}>{t(canWrite && o.status !== 'Closed' && o.status !== 'Cancelled' ? 'inbound.open' : 'table.view')}</Button>,
    },
  ], [t, quantities, parties, navigate, canWrite]);

  return (
    <DataTablePage<ReceivingOrderSummary>
      title={t('routes.InBound')}
      subtitle={t('inbound.subtitle')}
      rowKey="receivingOrderId"
      columns={columns}
      useList={useGetReceivingOrdersQuery}
      filters={filters}
      searchPlaceholder={t('inbound.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={canExport ? { url: `${R}/DownloadROReport`, fileName: 'receiving-orders.xlsx' } : undefined}
      onAdd={canWrite ? create.openCreate : undefined}
      addLabel={t('inbound.add')}
      actions={canWrite && <Button icon={<UploadOutlined />} onClick={uploader.openCreate}>{t('inbound.upload.button')}</Button>}
    >
      <RoFormDrawer open={create.open} onClose={create.close} onCreated={(id) => navigate(roDetailPath(id))} />
      <RoUploadDrawer open={uploader.open} onClose={uploader.close} />
    </DataTablePage>
  );
}
