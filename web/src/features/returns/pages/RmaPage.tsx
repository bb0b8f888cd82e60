import { useState } from 'react';
import { Alert, Button, Card, DatePicker, Form, Input, InputNumber, Menu, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { CloseOutlined, PlusOutlined, PrinterOutlined, SearchOutlined, TruckOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import {
  RETURN_CONDITIONS, RETURN_REASONS, RMA_MENU_KEYS, RMA_RESOLUTIONS, RMA_SCREEN, RMA_STATUSES, type FilterLabel, type ReturnableOrder, type RmaSummary, type RmaView,
} from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { mayAct } from '../../../lib/status-actions';
import { useCancelRmaMutation, useCreateRmaMutation, useGetRmasQuery, useLazyGetReturnableOrderQuery, useSetTrackingMutation } from '../returns-api';
import { useReturnsScope } from '../use-returns-scope';
import { ManualShipping } from '../components/ManualShipping';
import { ReturnLabelModal } from '../components/ReturnLabelModal';
import { RmaItems } from '../components/ReturnItemsTable';
import { useKeyedAction } from '../../../lib/action-key';

/** The menu: key 1 opens manual shipping, key 2 the new RMA view (spec section 2); the table is the default view. */
const MENU_KEY_OF: Record<RmaView, string> = { dashboard: '0', manual: '1', rma: '2' };
export const viewOfMenuKey = (key: string): RmaView => RMA_MENU_KEYS[key] ?? 'dashboard';

/** /RMA: "RMA Dashboard" — the RMA table, a new RMA against a shipped order, and manual shipping. */
export default function RmaPage() {
  const t = useT();
  const [view, setView] = useState<RmaView>('dashboard');
  const { warehouseId, customerId } = useReturnsScope('RMA');
  const selected = warehouseId > 0 && customerId > 0;
  const menu = (
    <Menu mode="horizontal" selectedKeys={[MENU_KEY_OF[view]]} onClick={(e) => setView(viewOfMenuKey(e.key))} data-testid="rma-menu"
      items={[
        { key: '0', label: t('returns.rma.view.dashboard') },
        { key: '2', label: t('returns.rma.view.rma'), icon: <PlusOutlined /> },
        { key: '1', label: t('returns.rma.view.manual'), icon: <TruckOutlined /> },
      ]} />
  );
  return (
    <div className="bolx-page" data-testid="rma-page" data-view={view}>
      {!selected && <Alert type="warning" showIcon message={RMA_SCREEN.selectWarning} style={{ marginBottom: 12 }} data-testid="rma-warning" />}
      {view === 'dashboard' && <RmaTable menu={menu} />}
      {view !== 'dashboard' && (
        <Card title={<><Typography.Title level={4} style={{ margin: 0 }}>{RMA_SCREEN.header}</Typography.Title><Typography.Text type="secondary">{RMA_SCREEN.text}</Typography.Text></>}>
          {menu}
          <div style={{ marginTop: 16 }}>
            {view === 'rma' && (selected ? <NewRma onDone={() => setView('dashboard')} /> : null)}
            {view === 'manual' && (selected ? <ManualShipping /> : null)}
          </div>
        </Card>
      )}
    </div>
  );
}

function RmaTable({ menu }: { menu: React.ReactNode }) {
  const t = useT();
  const { canWrite } = useReturnsScope('RMA');
  const [tracking] = useSetTrackingMutation();
  const [cancel] = useCancelRmaMutation();
  const act = useKeyedAction();
  const [trackingFor, setTrackingFor] = useState<number | null>(null);
  const [labelFor, setLabelFor] = useState<RmaSummary | null>(null);
  const [trackingNumber, setTrackingNumber] = useState('');
  const filters: FilterLabel[] = [
    { key: 'status', label: t('returns.fields.status'), type: 'select', options: RMA_STATUSES.map((s) => ({ value: s, label: t(`returns.status.${s}`) })) },
  ];
  const columns: ColumnsType<RmaSummary> = [
    { key: 'rmaNumber', dataIndex: 'rmaNumber', title: t('returns.fields.rmaNumber'), sorter: true },
    { key: 'status', dataIndex: 'status', title: t('returns.fields.status'), sorter: true, render: (v: string) => <StatusTag kind="RMA" status={v} /> },
    { key: 'soNumber', dataIndex: 'soNumber', title: t('returns.fields.order'), sorter: true },
    { key: 'customerName', dataIndex: 'customerName', title: t('returns.fields.customer'), sorter: true },
    { key: 'resolution', dataIndex: 'resolution', title: t('returns.fields.resolution'), render: (v: string) => t(`returns.resolution.${v}`) },
    { key: 'units', title: t('returns.fields.received'), align: 'right', render: (_: unknown, r) => `${r.receivedUnits} / ${r.units}` },
    { key: 'expiresOn', dataIndex: 'expiresOn', title: t('returns.fields.expiresOn'), sorter: true },
    { key: 'trackingNumber', dataIndex: 'trackingNumber', title: t('returns.fields.tracking'), render: (v: string | null) => v ?? '—' },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('returns.fields.createdAt'), sorter: true, render: (v: string) => new Date(v).toLocaleDateString() },
    ...(canWrite ? [{
      key: 'actions', title: t('table.actions'), fixed: 'right' as const,
      render: (_: unknown, r: RmaSummary) => (
        <Space size={0}>
          {(r.status === 'Authorised' || r.status === 'In Transit') && (trackingFor === r.rmaId ? (
            <Space.Compact>
              <Input size="small" placeholder={t('returns.rma.trackingNumber')} value={trackingNumber} onChange={(e) => setTrackingNumber(e.target.value)} />
              <Button size="small" type="primary" disabled={!trackingNumber.trim()}
                onClick={async () => { if (await act('tracking', { rmaId: r.rmaId, trackingNumber: trackingNumber.trim() }, tracking)) setTrackingFor(null); }}>
                {t('returns.desk.save')}
              </Button>
            </Space.Compact>
          ) : (
            <Button type="link" size="small" icon={<TruckOutlined />} onClick={() => { setTrackingFor(r.rmaId); setTrackingNumber(r.trackingNumber ?? ''); }}>{t('returns.rma.tracking')}</Button>
          ))}
          {(r.status === 'Authorised' || r.status === 'In Transit') && (
            <Button type="link" size="small" icon={<PrinterOutlined />} onClick={() => setLabelFor(r)} data-testid={`return-label-${r.rmaNumber}`}>{t('returns.rma.returnLabel')}</Button>
          )}
          {mayAct('RMA', r.status, 'cancel') && (
            <Popconfirm title={t('returns.rma.confirmCancel')} okText={t('returns.rma.cancel')} okButtonProps={{ danger: true }} cancelText={t('returns.rma.keep')}
              onConfirm={() => act('cancel', { rmaId: r.rmaId }, cancel)}>
              <Button type="link" size="small" danger icon={<CloseOutlined />}>{t('returns.rma.cancel')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    }] : []),
  ];
  return (
    <>
      {labelFor && <ReturnLabelModal rma={labelFor} onClose={() => setLabelFor(null)} />}
      <DataTablePage<RmaSummary>
        key="rmas"
        title={RMA_SCREEN.header}
        subtitle={RMA_SCREEN.text}
        rowKey="uniqueid"
        columns={columns}
        useList={useGetRmasQuery}
        filters={filters}
        searchPlaceholder={t('returns.rma.search')}
        scopeFilters={warehouseAndCustomerScope}
        placeholderRows={RMA_SCREEN.placeholderRows}
        toolbar={menu}
        tableProps={{ expandable: { rowExpandable: (r) => r.receivedUnits > 0, expandedRowRender: (r) => <RmaItems rmaId={r.rmaId} /> } }}
      />
    </>
  );
}

interface LineChoice { quantity: number; reason: string; expectedCondition: string }

/** The new RMA view: find the client's shipped order, choose what comes back from each line, and authorise it. */
function NewRma({ onDone }: { onDone: () => void }) {
  const t = useT();
  const { warehouseId, customerId } = useReturnsScope('RMA');
  const [find, found] = useLazyGetReturnableOrderQuery();
  const [create, creating] = useCreateRmaMutation();
  const act = useKeyedAction();
  const [code, setCode] = useState('');
  const [choices, setChoices] = useState<Record<number, LineChoice>>({});
  const [resolution, setResolution] = useState<string>('refund');
  const [expiresOn, setExpiresOn] = useState<Dayjs | null>(null);
  const [trackingNumber, setTrackingNumber] = useState('');
  const order = found.data;
  const choice = (id: number): LineChoice => choices[id] ?? { quantity: 0, reason: 'damaged', expectedCondition: 'new' };
  const setChoice = (id: number, patch: Partial<LineChoice>) => setChoices((c) => ({ ...c, [id]: { ...choice(id), ...patch } }));
  const lines = order ? order.lines.filter((l) => choice(l.orderLineId).quantity > 0) : [];
  const submit = async () => {
    if (!order) return;
    const done = await act('create-rma', {
      orderId: order.orderId, resolution: resolution as 'refund' | 'replace',
      ...(expiresOn ? { expiresOn: expiresOn.format('YYYY-MM-DD') } : {}), ...(trackingNumber.trim() ? { trackingNumber: trackingNumber.trim() } : {}),
      lines: lines.map((l) => ({ orderLineId: l.orderLineId, ...choice(l.orderLineId) })) as never,
    }, create);
    if (done) onDone();
  };
  const columns: ColumnsType<ReturnableOrder['lines'][number]> = [
    { key: 'skuCode', dataIndex: 'skuCode', title: t('returns.fields.sku'), render: (v: string, r) => <><Typography.Text strong>{v}</Typography.Text><div><Typography.Text type="secondary">{r.description}</Typography.Text></div></> },
    { key: 'shipped', dataIndex: 'shipped', title: t('returns.fields.shipped'), align: 'right' },
    { key: 'returnable', dataIndex: 'returnable', title: t('returns.fields.returnable'), align: 'right' },
    {
      key: 'quantity', title: t('returns.fields.quantity'),
      render: (_: unknown, r) => <InputNumber min={0} max={r.returnable} disabled={r.returnable === 0} value={choice(r.orderLineId).quantity}
        onChange={(v) => setChoice(r.orderLineId, { quantity: Number(v ?? 0) })} aria-label={`quantity ${r.skuCode}`} />,
    },
    {
      key: 'reason', title: t('returns.fields.reason'),
      render: (_: unknown, r) => <Select style={{ minWidth: 150 }} value={choice(r.orderLineId).reason} onChange={(v) => setChoice(r.orderLineId, { reason: v })}
        options={RETURN_REASONS.map((x) => ({ value: x, label: t(`returns.reason.${x}`) }))} aria-label={`reason ${r.skuCode}`} />,
    },
    {
      key: 'expectedCondition', title: t('returns.fields.expectedCondition'),
      render: (_: unknown, r) => <Select style={{ minWidth: 120 }} value={choice(r.orderLineId).expectedCondition} onChange={(v) => setChoice(r.orderLineId, { expectedCondition: v })}
        options={RETURN_CONDITIONS.map((x) => ({ value: x, label: t(`returns.condition.${x}`) }))} />,
    },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Space.Compact style={{ maxWidth: 480, width: '100%' }}>
        <Input placeholder={t('returns.rma.findOrder')} value={code} onChange={(e) => setCode(e.target.value)} data-testid="rma-order-code"
          onPressEnter={() => code.trim() && find({ warehouseId, customerId, code: code.trim() })} />
        <Button icon={<SearchOutlined />} onClick={() => code.trim() && find({ warehouseId, customerId, code: code.trim() })}>{t('returns.rma.find')}</Button>
      </Space.Compact>
      {found.isError && <Alert type="error" showIcon message={(found.error as { data?: { message?: string } })?.data?.message ?? 'No Record Found'} />}
      {order && (
        <>
          <Typography.Text strong>{order.soNumber} · {order.referenceNumber}</Typography.Text>
          <Table rowKey="orderLineId" size="small" pagination={false} columns={columns} dataSource={order.lines} scroll={{ x: true }} />
          <Form layout="inline" style={{ rowGap: 8 }}>
            <Form.Item label={t('returns.fields.resolution')}>
              <Select style={{ width: 120 }} value={resolution} onChange={setResolution} options={RMA_RESOLUTIONS.map((r) => ({ value: r, label: t(`returns.resolution.${r}`) }))} />
            </Form.Item>
            <Form.Item label={t('returns.fields.expiresOn')}><DatePicker value={expiresOn} onChange={setExpiresOn} /></Form.Item>
            <Form.Item label={t('returns.fields.tracking')}><Input value={trackingNumber} onChange={(e) => setTrackingNumber(e.target.value)} placeholder={t('returns.rma.trackingNumber')} /></Form.Item>
          </Form>
          <Button type="primary" disabled={lines.length === 0} loading={creating.isLoading} onClick={submit} data-testid="create-rma">{t('returns.rma.create')}</Button>
        </>
      )}
    </Space>
  );
}
