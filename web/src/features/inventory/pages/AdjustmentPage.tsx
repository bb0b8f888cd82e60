import { useState } from 'react';
import { Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { useKeyedAction } from '../../../lib/action-key';
import { AdjustmentDrawer } from '../components/AdjustmentDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { mayAct } from '../../../lib/status-actions';
import { formatDateTime } from '../format';
import {
  useApproveAdjustmentMutation, useGetAdjustmentFiltersQuery, useGetAdjustmentsQuery, useRejectAdjustmentMutation, type AdjustmentRow,
} from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';

/**
 * /Adjustment: every stock addition or removal with its reason — posted at once, or above a client's threshold
 * waiting for another manager.
 */
export default function AdjustmentPage() {
  const t = useT();
  const { canWrite, canApprove } = useInventoryScope('Adjustment');
  const [adding, setAdding] = useState(false);
  const { data: filters } = useGetAdjustmentFiltersQuery();
  const [approve] = useApproveAdjustmentMutation();
  const [reject] = useRejectAdjustmentMutation();
  const act = useKeyedAction();
  // The requester never decides their own request (the server refuses it too).
  const me = useAppSelector((s) => s.auth.username);

  const columns: ColumnsType<AdjustmentRow> = [
    { key: 'requestedAt', dataIndex: 'requestedAt', title: t('inventory.fields.requestedAt'), sorter: true, render: formatDateTime },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer'), sorter: true },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inventory.fields.sku'), sorter: true },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inventory.fields.location'), sorter: true },
    { key: 'lot', dataIndex: 'lot', title: t('inventory.fields.lot'), render: (v: string) => v || '—' },
    {
      key: 'quantityChange', dataIndex: 'quantityChange', title: t('inventory.fields.quantityChange'), align: 'right', sorter: true,
      render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : 'success'} strong>{v > 0 ? `+${v}` : v}</Typography.Text>,
    },
    { key: 'reasonCode', dataIndex: 'reasonCode', title: t('inventory.fields.reason'), render: (v: string) => t(`inventory.reason.${v}`) },
    { key: 'status', dataIndex: 'status', title: t('inventory.fields.status'), sorter: true, render: (v: string) => <StatusTag kind="ADJUSTMENT" status={v} /> },
    { key: 'requestedBy', dataIndex: 'requestedBy', title: t('inventory.fields.requestedBy'), render: (v: string | null) => v ?? '—' },
    { key: 'decidedBy', dataIndex: 'decidedBy', title: t('inventory.fields.decidedBy'), render: (v: string | null) => v ?? '—' },
    { key: 'note', dataIndex: 'note', title: t('inventory.fields.note'), render: (v: string | null) => v ?? '—' },
    ...(canApprove
      ? [{
          key: 'actions', title: t('table.actions'), fixed: 'right' as const,
          render: (_: unknown, row: AdjustmentRow) => (mayAct('ADJUSTMENT', row.status, 'approve') || mayAct('ADJUSTMENT', row.status, 'reject')) && (row.requestedBy === me
            ? (
                <Tooltip title={t('inventory.adjustment.ownRequestHint')}>
                  <Typography.Text type="secondary">{t('inventory.adjustment.ownRequest')}</Typography.Text>
                </Tooltip>
              )
            : (
            <Space size={0}>
              <Popconfirm title={t('inventory.adjustment.confirmApprove')} onConfirm={() =>
                act(`approve:${row.adjustmentId}`, { adjustmentId: row.adjustmentId }, approve)}>
                <Button type="link" size="small" icon={<CheckOutlined />} aria-label={`${t('inventory.approve')} ${row.skuCode}`}>{t('inventory.approve')}</Button>
              </Popconfirm>
              <Popconfirm title={t('inventory.adjustment.confirmReject')} onConfirm={() =>
                act(`reject:${row.adjustmentId}`, { adjustmentId: row.adjustmentId }, reject)}>
                <Button type="link" size="small" danger icon={<CloseOutlined />}>{t('inventory.reject')}</Button>
              </Popconfirm>
            </Space>
          )),
        }]
      : []),
  ];

  return (
    <DataTablePage<AdjustmentRow>
      title={t('routes.Adjustment')}
      subtitle={t('inventory.adjustment.subtitle')}
      rowKey="adjustmentId"
      columns={columns}
      useList={useGetAdjustmentsQuery}
      filters={filters}
      searchPlaceholder={t('inventory.adjustment.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: 'Warehouse/Adjustment/DownloadAdjustmentsExcel', fileName: 'adjustments.xlsx' }}
      onAdd={canWrite ? () => setAdding(true) : undefined}
      addLabel={t('inventory.adjustment.add')}
    >
      <AdjustmentDrawer open={adding} onClose={() => setAdding(false)} />
    </DataTablePage>
  );
}
