import { useMemo, useState } from 'react';
import { LinkedTickets } from '../../../components/linked-tickets/LinkedTickets';
import { Button, Descriptions, Drawer, Empty, Grid, Popconfirm, Result, Skeleton, Space, Table, Tabs, Tag, Timeline, Typography } from 'antd';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import type { OrderDetail, OrderLine } from '@bolx/contracts';
import { StatusTag } from '../../../components/StatusTag';
import { useDownload } from '../../../components/download/use-download';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useKeyedAction } from '../../../lib/action-key';
import { useT } from '../../../lib/i18n/use-t';
import { offersKitBuild, orderActions, type OrderAction, type OrderActor } from '../order-model';
import { useCancelOrderMutation, useCreateWorkOrderForOrderLineMutation, useGetOrderQuery, useHoldOrderMutation, useReleaseHoldMutation } from '../orders-api';
import type { MoveTarget } from './use-order-moves';
import { useOrderFloorButtons } from './OrderFloorActions';

/**
 * One order: header, lines with what is allocated where (location, lot, expiry) and why a line is short, its
 * status history, its documents, and the moves its status allows this user. Hold, release and cancel are one
 * order's routes; allocate and unallocate go through the bulk moves with this one order. The floor's steps
 * (release, pick, pack, ship, packing slip) follow them, as the order's status allows.
 */
export function OrderDrawer({ orderId, who, onClose, onBulk }: {
  orderId: number | undefined;
  who: OrderActor;
  onClose: () => void;
  onBulk: (action: OrderAction, orders: MoveTarget[]) => unknown;
}) {
  const t = useT();
  const screens = Grid.useBreakpoint();
  const { data: order, isLoading, isError, refetch } = useGetOrderQuery(orderId ?? 0, { skip: !orderId });
  return (
    <Drawer
      open={orderId !== undefined}
      onClose={onClose}
      width={screens.md ? 960 : '100%'}
      destroyOnHidden
      className="bolx-order-drawer"
      title={order ? <Space wrap>{t('outbound.drawer.title', { so: order.soNumber })}<StatusTag kind="SALES_ORDER" status={order.status} /></Space> : t('outbound.drawer.header')}
    >
      {isLoading ? <Skeleton active paragraph={{ rows: 10 }} />
        : isError || !order ? <Result status="warning" title={t('outbound.drawer.notFound')} extra={<Button onClick={() => refetch()}>{t('table.retry')}</Button>} />
        : <OrderBody order={order} who={who} onBulk={onBulk} />}
    </Drawer>
  );
}

function OrderBody({ order, who, onBulk }: { order: OrderDetail; who: OrderActor; onBulk: (action: OrderAction, orders: MoveTarget[]) => unknown }) {
  const t = useT();
  const intl = useIntl();
  const n = (v: number) => intl.formatNumber(v);
  const [hold, { isLoading: holding }] = useHoldOrderMutation();
  const [release, { isLoading: releasing }] = useReleaseHoldMutation();
  const [cancel, { isLoading: cancelling }] = useCancelOrderMutation();
  const actions = orderActions(order.status, who);
  const floorButtons = useOrderFloorButtons(order);
  const target: MoveTarget = { orderId: order.orderId, soNumber: order.soNumber, status: order.status };
  const documents = order.documents;
  const [download, downloading] = useDownload();
  const buildKits = useKitBuild(order.orderId);

  const lineColumns = useMemo<ColumnsType<OrderLine>>(() => [
    { key: 'lineNo', dataIndex: 'lineNo', title: '#', width: 40 },
    {
      key: 'sku', title: t('outbound.col.sku'),
      render: (_, l) => (
        <div className="bolx-order-two-lines">
          <Typography.Text strong>{l.skuCode}</Typography.Text>{l.isKit && <Tag style={{ marginLeft: 6 }}>Kit</Tag>}
          <div><Typography.Text type="secondary" className="bolx-order-line__desc">{l.skuDescription}</Typography.Text></div>
        </div>
      ),
    },
    {
      key: 'quantity', title: t('outbound.col.ordered'), align: 'right',
      render: (_, l) => (
        <div className="bolx-order-two-lines">
          {n(l.quantity)}
          {l.packageName && <div><Typography.Text type="secondary">{`${n(l.quantity / Math.max(1, l.unitsPerPackage))} × ${l.packageName}`}</Typography.Text></div>}
        </div>
      ),
    },
    { key: 'lot', dataIndex: 'lot', title: t('outbound.col.lot'), render: (v: string) => v || '—' },
    {
      key: 'allocated', title: t('outbound.col.allocated'), align: 'right',
      render: (_, l) => (l.allocatedQuantity < l.quantity && l.allocatedQuantity > 0 ? <Typography.Text type="warning" strong>{n(l.allocatedQuantity)}</Typography.Text> : n(l.allocatedQuantity)),
    },
    {
      key: 'where', title: t('outbound.col.where'),
      render: (_, l) => (l.allocations.length === 0 ? <Typography.Text type="secondary">—</Typography.Text> : (
        <ul className="bolx-order-allocs">
          {l.allocations.map((a) => (
            <li key={a.balanceId}>
              <Typography.Text strong>{a.locationCode}</Typography.Text>
              {a.lot && ` · ${t('outbound.col.lot')} ${a.lot}`}
              {a.expiryDate && ` · ${t('outbound.col.expiry')} ${a.expiryDate}`}
              {` · ${n(a.quantity)}`}
            </li>
          ))}
        </ul>
      )),
    },
    {
      key: 'short', title: t('outbound.col.reason'),
      render: (_, l) => (
        <Space direction="vertical" size={4}>
          {l.shortReason && <Tag color="orange" data-reason={l.shortReason}>{t(`outbound.short.${l.shortReason}`)}</Tag>}
          {buildKits.made[l.lineId] && <Tag color="blue" data-work-order={buildKits.made[l.lineId]}>{t('outbound.drawer.workOrderMade', { wo: buildKits.made[l.lineId] })}</Tag>}
          {offersKitBuild(order.status, l, who) && !buildKits.made[l.lineId] && (
            <Button size="small" loading={buildKits.busy === l.lineId} onClick={() => void buildKits.build(l.lineId)}>{t('outbound.drawer.buildKits')}</Button>
          )}
        </Space>
      ),
    },
  // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [t, intl, order.status, who, buildKits.made, buildKits.busy]);

  const address = [order.shipToAddress1, order.shipToAddress2, [order.shipToZip, order.shipToCity].filter(Boolean).join(' '), order.shipToState, order.shipToCountry]
    .filter(Boolean).join(', ');
  const buttons: Record<OrderAction, React.ReactNode> = {
    allocate: <Button key="allocate" type="primary" onClick={() => onBulk('allocate', [target])}>{t('outbound.action.allocate')}</Button>,
    unallocate: <Button key="unallocate" onClick={() => onBulk('unallocate', [target])}>{t('outbound.action.unallocate')}</Button>,
    hold: <Button key="hold" loading={holding} onClick={() => runMutation(hold({ orderId: order.orderId }))}>{t('outbound.action.hold')}</Button>,
    releaseHold: <Button key="releaseHold" loading={releasing} onClick={() => runMutation(release({ orderId: order.orderId }))}>{t('outbound.action.releaseHold')}</Button>,
    cancel: (
      <Popconfirm key="cancel" title={t('outbound.action.confirmCancel', { count: 1 })} okText={t('outbound.action.cancel')} cancelText={t('form.close')}
        okButtonProps={{ danger: true }} onConfirm={() => runMutation(cancel({ orderId: order.orderId }))}>
        <Button danger loading={cancelling}>{t('outbound.action.cancel')}</Button>
      </Popconfirm>
    ),
  };

  return (
    <>
      {actions.length + floorButtons.length > 0 && <Space wrap className="bolx-order-drawer__actions">{actions.map((a) => buttons[a])}{floorButtons}</Space>}
      <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }}>
        <Descriptions.Item label={t('outbound.fields.referenceNumber')}>{order.referenceNumber}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.customer')}>{order.customerName}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.warehouse')}>{order.warehouseName}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.orderType')}>{t(`outbound.type.${order.orderType}`)}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.orderDate')}>{order.orderDate}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.requestedShipDate')}>{order.requestedShipDate ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.priority')}>{order.priority}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.fields.carrierAccount')}>{[order.carrierName, order.carrierService].filter(Boolean).join(' · ') || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.col.ordered')}>{`${n(order.orderedQuantity)} (${t('outbound.col.allocated')} ${n(order.allocatedQuantity)})`}</Descriptions.Item>
        <Descriptions.Item label={t('outbound.form.shipTo')} span={{ xs: 1, sm: 2, lg: 3 }}>
          {order.shipToName || address ? (
            <div>
              <div>{order.shipToName}</div>
              <div>{address}</div>
              <Typography.Text type="secondary">{[order.shipToPhone, order.shipToEmail].filter(Boolean).join(' · ')}</Typography.Text>
            </div>
          ) : '—'}
        </Descriptions.Item>
        {order.notes && <Descriptions.Item label={t('outbound.fields.notes')} span={{ xs: 1, sm: 2, lg: 3 }}>{order.notes}</Descriptions.Item>}
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('outbound.drawer.created', { by: order.createdBy ?? '—', source: t(`outbound.source.${order.source}`) })} · {intl.formatDate(order.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
      </Typography.Paragraph>
      <LinkedTickets kind="order" id={order.orderId} number={order.soNumber} />
      <Tabs
        items={[
          {
            key: 'lines', label: `${t('outbound.drawer.lines')} (${order.lines.length})`,
            children: <Table<OrderLine> size="small" rowKey="lineId" columns={lineColumns} dataSource={order.lines} pagination={false} scroll={{ x: 'max-content' }} />,
          },
          {
            key: 'history', label: t('outbound.drawer.history'),
            children: order.history.length === 0 ? <Empty description={t('outbound.drawer.noHistory')} /> : (
              <Timeline
                items={order.history.map((h) => ({
                  children: (
                    <div>
                      <Space wrap size={4}>
                        <StatusTag kind="SALES_ORDER" status={h.fromStatus} />→<StatusTag kind="SALES_ORDER" status={h.toStatus} />
                      </Space>
                      <div><Typography.Text type="secondary">{`${intl.formatDate(h.at, { dateStyle: 'medium', timeStyle: 'short' })}${h.username ? ` · ${h.username}` : ''}`}</Typography.Text></div>
                      {h.reason && <div>{h.reason}</div>}
                    </div>
                  ),
                }))}
              />
            ),
          },
          ...(documents.length ? [{
            key: 'documents', label: `${t('outbound.drawer.documents')} (${documents.length})`,
            children: (
              <ul>
                {documents.map((d) => (
                  <li key={d.id}>
                    <Button type="link" size="small" disabled={downloading}
                      onClick={() => void download({ url: `Warehouse/Order/DownloadOrderDocument?documentId=${d.id}`, method: 'GET' }, d.fileName)}>
                      {d.fileName}
                    </Button>
                  </li>
                ))}
              </ul>
            ),
          }] : []),
        ]}
      />
    </>
  );
}

/**
 * "Build kits" on a kit line: raises a Build work order for the kits the line misses and keeps its number to show
 * on the line. A double click reuses the click's Idempotency-Key, so the server makes one work order.
 */
function useKitBuild(orderId: number) {
  const [create] = useCreateWorkOrderForOrderLineMutation();
  const [made, setMade] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState<number | null>(null);
  const act = useKeyedAction();
  const build = async (orderLineId: number) => {
    setBusy(orderLineId);
    try {
      const answer = await act(`build-kits:${orderLineId}`, { orderId, orderLineId }, create);
      if (answer) setMade((m) => ({ ...m, [orderLineId]: answer.data.woNumber }));
    } finally {
      setBusy(null);
    }
  };
  return { made, busy, build };
}
