import { Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReturnItem } from '@bolx/contracts';
import { useGetRmaQuery } from '../returns-api';
import { useT } from '../../../lib/i18n/use-t';
import { ReturnItemActions } from './ReturnItemActions';
import { ReturnPhotos, type PhotoRoute } from './ReturnPhotos';

const STATUS_COLOUR = { Received: 'processing', Inspected: 'purple', Disposed: 'success' } as const;

/** Returned items with their inspection and disposition; staff act on each row. */
export function returnItemColumns(t: (id: string) => string, canWrite: boolean, photoRoute: PhotoRoute = 'Warehouse/Returns/GetItemPhoto'): ColumnsType<ReturnItem> {
  return [
    { key: 'returnNumber', dataIndex: 'returnNumber', title: t('returns.fields.returnNumber') },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('returns.fields.sku'), render: (v: string, r) => <><Typography.Text strong>{v}</Typography.Text>{r.lot && <div>{r.lot}</div>}</> },
    { key: 'quantity', dataIndex: 'quantity', title: t('returns.fields.quantity'), align: 'right' },
    { key: 'reason', dataIndex: 'reason', title: t('returns.fields.reason'), render: (v: string) => t(`returns.reason.${v}`) },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('returns.fields.location') },
    { key: 'status', dataIndex: 'status', title: t('returns.fields.status'), render: (v: ReturnItem['status']) => <Tag color={STATUS_COLOUR[v]} data-status={v}>{v}</Tag> },
    { key: 'condition', dataIndex: 'condition', title: t('returns.fields.condition'), render: (v: string | null) => (v ? t(`returns.condition.${v}`) : '—') },
    {
      key: 'disposition', dataIndex: 'disposition', title: t('returns.fields.disposition'),
      render: (v: string | null, r) => (v ? `${t(`returns.disposition.${v}`)}${r.dispositionLocationCode ? ` → ${r.dispositionLocationCode}` : ''}${r.dispositionReason ? ` (${r.dispositionReason})` : ''}` : '—'),
    },
    {
      key: 'photos', title: t('returns.fields.photos'),
      render: (_: unknown, r) => <ReturnPhotos itemId={r.itemId} photos={r.photos} route={photoRoute} />,
    },
    ...(canWrite ? [{ key: 'actions', title: t('table.actions'), render: (_: unknown, r: ReturnItem) => <ReturnItemActions item={r} /> }] : []),
  ];
}

export function ReturnItemsTable({ items, canWrite, photoRoute }: { items: ReturnItem[]; canWrite: boolean; photoRoute?: PhotoRoute }) {
  const t = useT();
  return <Table rowKey="itemId" size="small" pagination={false} columns={returnItemColumns(t, canWrite, photoRoute)} dataSource={items} scroll={{ x: true }} data-testid="return-items" />;
}

/** An RMA's returned units, read-only (the RMA table's expanded row): what came back, its inspection and photos. */
export function RmaItems({ rmaId }: { rmaId: number }) {
  const rma = useGetRmaQuery(rmaId);
  return <ReturnItemsTable items={rma.data?.items ?? []} canWrite={false} photoRoute="Warehouse/RMA/GetItemPhoto" />;
}
