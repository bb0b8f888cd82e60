import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Empty, List, Modal, Popconfirm, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { CarOutlined, SendOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import type { ConfirmShipmentResult, OrderSummary } from '@bolx/contracts';
import { useConfirmShipmentMutation, useGetPackedOrdersQuery } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectCustomerId } from '../../../lib/state/selectors';
import { groupByCarrier, shipGroupInput, shipSummary, type CarrierGroup, type FloorActor } from '../floor-model';

/**
 * Ship confirm: the warehouse's packed orders by carrier, live; ship every packed order of a carrier at once, or
 * one order; the answer says what shipped, what was refused and why, and the backorders taken in for the rest.
 */
export function ShipView({ actions, who, warehouseId }: { actions: ReactNode; who: FloorActor; warehouseId: number }) {
  const t = useT();
  const customerId = useAppSelector(selectCustomerId) || 0;
  const { data, isLoading, isError, refetch } = useGetPackedOrdersQuery({ warehouseId, ...(customerId ? { customerId } : {}) }, { skip: !warehouseId });
  const [confirm, { isLoading: shipping }] = useConfirmShipmentMutation();
  const [result, setResult] = useState<ConfirmShipmentResult>();
  const groups = groupByCarrier(data?.items ?? []);

  const ship = async (input: Parameters<typeof confirm>[0]) => {
    const answer = await runMutation(confirm(input));
    if (answer) setResult(answer.data);
  };

  return (
    <div className="bolx-page bolx-floor">
      <div className="bolx-floor__titlebar">
        <div>
          <Typography.Title level={3}>{t('routes.BatchJob')}</Typography.Title>
          <Typography.Text type="secondary">{t('floor.ship.subtitle')}</Typography.Text>
        </div>
        {actions}
      </div>
      {!warehouseId ? <Alert type="info" showIcon message={t('floor.chooseWarehouse')} />
        : isError ? <Alert type="error" showIcon message={t('table.loadError')} action={<Button size="small" onClick={() => refetch()}>{t('table.retry')}</Button>} />
        : isLoading ? <Skeleton active paragraph={{ rows: 6 }} />
        : groups.length === 0 ? <Card><Empty description={t('floor.ship.none')} /></Card>
        : (
          <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="ship-groups">
            {data && data.totalCount > data.items.length && <Alert type="info" showIcon message={t('floor.ship.more', { shown: data.items.length, total: data.totalCount })} />}
            {groups.map((g) => (
              <CarrierCard key={g.key} group={g} canShip={who.write} shipping={shipping}
                onShipAll={() => void ship(shipGroupInput(g, warehouseId))}
                onShipOne={(o) => void ship({ warehouseId, orderIds: [o.orderId] })} />
            ))}
          </Space>
        )}
      {result && <ShipResultModal result={result} onClose={() => setResult(undefined)} />}
    </div>
  );
}

function CarrierCard({ group, canShip, shipping, onShipAll, onShipOne }: {
  group: CarrierGroup; canShip: boolean; shipping: boolean; onShipAll: () => void; onShipOne: (o: OrderSummary) => void;
}) {
  const t = useT();
  const intl = useIntl();
  const name = group.carrierName ?? t('floor.ship.noCarrier');
  return (
    <Card
      size="small"
      data-testid="carrier-group"
      title={<Space wrap><CarOutlined />{name}<Tag>{t('floor.orderCount', { count: group.orders.length })}</Tag><Typography.Text type="secondary">{t('floor.unitCount', { count: group.units })}</Typography.Text></Space>}
      extra={canShip && (
        <Popconfirm title={t('floor.ship.confirmAll', { count: group.orders.length, carrier: name })} okText={t('floor.ship.ship')} cancelText={t('form.close')} onConfirm={onShipAll}>
          <Button type="primary" size="small" icon={<SendOutlined />} loading={shipping} data-testid="ship-all">{t('floor.ship.all')}</Button>
        </Popconfirm>
      )}
    >
      <Table<OrderSummary>
        size="small"
        rowKey="orderId"
        scroll={{ x: 'max-content' }}
        pagination={group.orders.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
        dataSource={group.orders}
        columns={[
          { key: 'soNumber', dataIndex: 'soNumber', title: t('floor.col.order'), render: (v: string, o) => <><Typography.Text strong>{v}</Typography.Text><div><Typography.Text type="secondary">{o.referenceNumber}</Typography.Text></div></> },
          { key: 'customerName', dataIndex: 'customerName', title: t('floor.col.client') },
          { key: 'service', dataIndex: 'carrierService', title: t('floor.col.service'), render: (v: string | null) => v ?? '—' },
          { key: 'shipTo', title: t('floor.col.shipTo'), render: (_, o) => <>{o.shipToName ?? '—'}<div><Typography.Text type="secondary">{[o.shipToCity, o.shipToCountry].filter(Boolean).join(', ')}</Typography.Text></div></> },
          { key: 'units', title: t('floor.col.units'), align: 'right', render: (_, o) => intl.formatNumber(o.allocatedQuantity) },
          ...(canShip ? [{
            key: 'actions', title: t('table.actions'), fixed: 'right' as const,
            render: (_: unknown, o: OrderSummary) => (
              <Popconfirm title={t('floor.ship.confirmOne', { so: o.soNumber })} okText={t('floor.ship.ship')} cancelText={t('form.close')} onConfirm={() => onShipOne(o)}>
                <Button type="link" size="small" icon={<SendOutlined />} disabled={shipping} data-testid="ship-one">{t('floor.ship.ship')}</Button>
              </Popconfirm>
            ),
          }] : []),
        ]}
      />
    </Card>
  );
}

/** A ship confirm's answer: shipped orders (cartons, units), backorders taken in, and each refused order with why. */
export function ShipResultModal({ result, onClose }: { result: ConfirmShipmentResult; onClose: () => void }) {
  const t = useT();
  const s = shipSummary(result);
  return (
    <Modal open title={t('floor.ship.resultTitle', { shipped: s.shipped, refused: s.refused.length })} onCancel={onClose} onOk={onClose} okText={t('form.close')}
      cancelButtonProps={{ style: { display: 'none' } }}>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="ship-result">
        {s.shipped > 0 && <Alert type="success" showIcon message={t('floor.ship.shipped', { orders: s.shipped, cartons: s.cartons, units: s.units })} />}
        {s.backorders.length > 0 && (
          <List size="small" header={<Typography.Text strong>{t('floor.ship.backorders')}</Typography.Text>} dataSource={s.backorders}
            renderItem={(b) => <List.Item>{t('floor.ship.backorderOf', { so: b.soNumber, backorder: b.backorderSoNumber })}</List.Item>} />
        )}
        {s.refused.length > 0 && (
          <List size="small" header={<Typography.Text strong>{t('floor.result.refused')}</Typography.Text>} dataSource={s.refused}
            renderItem={(r) => <List.Item><Typography.Text><Typography.Text strong>{r.soNumber}</Typography.Text> — {r.message}</Typography.Text></List.Item>} />
        )}
      </Space>
    </Modal>
  );
}
