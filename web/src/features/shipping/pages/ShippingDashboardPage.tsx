import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Col, Dropdown, Empty, Popconfirm, Row, Select, Skeleton, Space, Statistic, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { CarOutlined, CloseCircleOutlined, DollarOutlined, FileTextOutlined, PrinterOutlined, SendOutlined, TagsOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useIntl } from 'react-intl';
import { APPROVER_ROLES, type ManifestSummary, type ShipmentSummary, type WaitingOrder } from '@bolx/contracts';
import { StatusTag } from '../../../components/StatusTag';
import { useDownload } from '../../../components/download/use-download';
import { runMutation } from '../../../lib/api/mutation-toast';
import {
  shippingFiles, useCloseDayMutation, useCreateLabelsMutation, useGetShippingDashboardQuery, useShipShipmentsMutation, useVoidLabelsMutation,
} from '../../../lib/api/shipping-api';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { staffWrite } from '../../../lib/access';
import { useMayAccess } from '../../../lib/use-access';
import { RateShopModal } from '../components/RateShopModal';
import { RateTableEditor } from '../components/RateTableEditor';
import { ShipmentDrawer } from '../components/ShipmentDrawer';
import { exceptionParts, groupWaiting, money, rowActions, selectionPlan, type CarrierGroup } from '../shipping-model';
import '../messages';
import '../shipping.css';

type Tab = 'waiting' | 'exceptions' | 'shipped' | 'close' | 'rates';

const twoLines = (main: React.ReactNode, sub: React.ReactNode) => (
  <div className="bolx-shipping__two-lines"><div>{main}</div><Typography.Text type="secondary">{sub || '—'}</Typography.Text></div>
);

/**
 * /ShippingDashboard: the warehouse's packed orders by carrier account and cut-off (rate, label, print, void,
 * ship, in bulk too), the exceptions (no carrier, no rate, overweight, label failed), what shipped today, and the
 * end-of-day close per carrier account with its manifest as PDF and CSV.
 */
export default function ShippingDashboardPage() {
  const t = useT();
  const headerWarehouse = useAppSelector(selectWarehouseId) || 0;
  const warehouses = useAppSelector((s) => s.header.data?.warehouseData ?? []);
  const [picked, setPicked] = useState<number>();
  // With "All Warehouses" in the header, the dashboard asks which one: a day is closed per warehouse.
  const warehouseId = headerWarehouse || picked || (warehouses.length === 1 ? warehouses[0].warehouseId : 0);
  const picker = headerWarehouse ? null : (
    <Select className="bolx-shipping__warehouse" placeholder={t('shipping.warehouse')} aria-label={t('shipping.warehouse')} value={warehouseId || undefined} onChange={setPicked}
      options={warehouses.filter((w) => w.warehouseId > 0).map((w) => ({ value: w.warehouseId, label: w.warehouseName }))} data-testid="shipping-warehouse" showSearch optionFilterProp="label" />
  );
  const customerId = useAppSelector(selectCustomerId) || 0;
  const { data, isLoading, isError, refetch } = useGetShippingDashboardQuery({ warehouseId, ...(customerId ? { customerId } : {}) }, { skip: !warehouseId });
  // ?shipmentId=ID: a shipment's view over the dashboard — any shipment by id, of any day or warehouse (a help desk
  // ticket's "About", a row's shipment number), its tickets shown.
  const [params, setParams] = useSearchParams();
  const shipmentId = Number(params.get('shipmentId')) || undefined;
  const openShipment = (id: number | undefined) => setParams(id ? { shipmentId: String(id) } : {}, { replace: !id });
  const drawer = <ShipmentDrawer shipmentId={shipmentId} onClose={() => openShipment(undefined)} />;
  const [tab, setTab] = useState<Tab>('waiting');
  const exceptions = useMemo(() => (data?.waiting ?? []).filter((w) => w.exception), [data]);
  // Rate tables: read by the warehouse's staff, saved by managers (the routes' policies).
  const may = useMayAccess();
  const canEditRates = may(staffWrite('ShippingDashboard'));
  const canSaveRates = may({ roles: APPROVER_ROLES, module: { key: 'ShippingDashboard', permission: 'write' } });

  if (!warehouseId) return <div className="bolx-page"><Title picker={picker} /><Alert type="info" showIcon message={t('shipping.chooseWarehouse')} />{drawer}</div>;
  if (isError) return <div className="bolx-page"><Title picker={picker} /><Alert type="error" showIcon message={t('table.loadError')} action={<Button size="small" onClick={() => refetch()}>{t('table.retry')}</Button>} />{drawer}</div>;
  if (isLoading || !data) return <div className="bolx-page"><Title picker={picker} /><Skeleton active paragraph={{ rows: 10 }} />{drawer}</div>;

  const toClose = data.toClose.reduce((s, c) => s + c.shipments, 0);
  return (
    <div className="bolx-page bolx-shipping" data-testid="shipping-dashboard">
      <Title day={data.businessDay} picker={picker} />
      <Row gutter={[12, 12]} className="bolx-shipping__stats">
        {([['waiting', data.waiting.length], ['exceptions', exceptions.length], ['shipped', data.shippedToday.length], ['toClose', toClose]] as const).map(([k, v]) => (
          <Col key={k} xs={12} md={6}><Card size="small"><Statistic title={t(`shipping.stat.${k}`)} value={v} valueStyle={k === 'exceptions' && v > 0 ? { color: '#cf1322' } : undefined} /></Card></Col>
        ))}
      </Row>
      <Tabs activeKey={tab} onChange={(k) => setTab(k as Tab)} items={[
        { key: 'waiting', label: t('shipping.tab.waiting', { count: data.waiting.length }), children: <WaitingView orders={data.waiting} onOpen={openShipment} /> },
        { key: 'exceptions', label: t('shipping.tab.exceptions', { count: exceptions.length }), children: exceptions.length ? <WaitingView orders={exceptions} onOpen={openShipment} /> : <Card><Empty description={t('shipping.noExceptions')} /></Card> },
        { key: 'shipped', label: t('shipping.tab.shipped', { count: data.shippedToday.length }), children: <ShippedView shipments={data.shippedToday} onOpen={openShipment} /> },
        { key: 'close', label: t('shipping.tab.close'), children: <CloseView warehouseId={warehouseId} toClose={data.toClose} manifests={data.manifests} /> },
        ...(canEditRates ? [{ key: 'rates', label: t('shipping.tab.rates'), children: <RateTableEditor customerId={customerId} canSave={canSaveRates} /> }] : []),
      ]} />
      {drawer}
    </div>
  );
}

/** A shipment's number as the link that opens its view. */
function ShipmentLink({ id, number, onOpen }: { id: number; number: string; onOpen: (id: number) => void }) {
  const t = useT();
  return <Typography.Link strong onClick={() => onOpen(id)} aria-label={t('shipping.view.open', { number })} data-testid={`open-shipment-${id}`}>{number}</Typography.Link>;
}

function Title({ day, picker }: { day?: string; picker?: React.ReactNode }) {
  const t = useT();
  return (
    <div className="bolx-shipping__titlebar">
      <div>
        <Typography.Title level={3}>{t('routes.ShippingDashboard')}</Typography.Title>
        <Typography.Text type="secondary">{t('shipping.subtitle')}</Typography.Text>
      </div>
      <Space wrap>{picker}{day && <Tag color="blue">{t('shipping.day', { day })}</Tag>}</Space>
    </div>
  );
}

/** Packed orders by carrier, with the row actions and the bulk label-and-print / ship over a selection. */
function WaitingView({ orders, onOpen }: { orders: WaitingOrder[]; onOpen: (shipmentId: number) => void }) {
  const t = useT();
  const [selected, setSelected] = useState<number[]>([]);
  const [rating, setRating] = useState<WaitingOrder>();
  const [createLabels, { isLoading: labelling }] = useCreateLabelsMutation();
  const [ship, { isLoading: shipping }] = useShipShipmentsMutation();
  const [download, downloading] = useDownload();
  const groups = groupWaiting(orders);
  const chosen = orders.filter((o) => selected.includes(o.orderId));
  const plan = selectionPlan(chosen);

  const printLabels = (ids: number[], format: 'pdf' | 'zpl' = 'pdf', kind: 'carrier' | 'sscc' = 'carrier') =>
    download(shippingFiles.labels(ids, format, kind), `${kind === 'sscc' ? 'sscc-labels' : 'labels'}.${format}`);

  /** Labels every selected order still without one (each on its own: a refusal never stops the others), then prints them all. */
  const labelAndPrint = async () => {
    const ids = [...plan.labelled];
    let failed = 0;
    for (const orderId of plan.toLabel) {
      const answer = await runMutation(createLabels({ orderId }), { silentSuccess: true });
      if (answer) ids.push(answer.data.shipmentId);
      else failed++;
    }
    if (plan.toLabel.length) (failed ? notifyError : notifySuccess)(t('shipping.bulk.done', { labelled: plan.toLabel.length - failed, failed }));
    if (ids.length) await printLabels(ids);
    setSelected([]);
  };

  if (orders.length === 0) return <Card><Empty description={t('shipping.noWaiting')} /></Card>;
  return (
    <>
      <div className="bolx-shipping__bulk" data-testid="shipping-bulk">
        <Typography.Text type="secondary">{t('shipping.bulk.selected', { count: selected.length })}</Typography.Text>
        <Button type="primary" icon={<PrinterOutlined />} disabled={!selected.length} loading={labelling || downloading} onClick={() => void labelAndPrint()} data-testid="bulk-label-print">
          {t('shipping.bulk.labelPrint')}
        </Button>
        <Button icon={<SendOutlined />} disabled={!plan.labelled.length} loading={shipping} data-testid="bulk-ship"
          onClick={async () => { if (await runMutation(ship({ shipmentIds: plan.labelled }))) setSelected([]); }}>
          {t('shipping.bulk.ship')}
        </Button>
        <Dropdown disabled={!plan.labelled.length} menu={{
          items: [{ key: 'sscc', label: t('shipping.bulk.sscc') }, { key: 'zpl', label: t('shipping.bulk.zpl') }],
          onClick: ({ key }) => void (key === 'sscc' ? printLabels(plan.labelled, 'pdf', 'sscc') : printLabels(plan.labelled, 'zpl')),
        }}>
          <Button icon={<TagsOutlined />}>{t('shipping.bulk.sscc')} / {t('shipping.bulk.zpl')}</Button>
        </Dropdown>
      </div>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {groups.map((g) => (
          <CarrierCard key={g.key} group={g} selected={selected} onOpen={onOpen} onSelect={(ids) => setSelected((s) => [...s.filter((id) => !g.orders.some((o) => o.orderId === id)), ...ids])}
            onRate={setRating} onPrint={(id) => void printLabels([id])} />
        ))}
      </Space>
      {rating && <RateShopModal order={rating} onClose={() => setRating(undefined)} onLabelled={(id) => { setRating(undefined); void printLabels([id]); }} />}
    </>
  );
}

function CarrierCard({ group, selected, onSelect, onRate, onPrint, onOpen }: {
  group: CarrierGroup; selected: number[]; onSelect: (ids: number[]) => void; onRate: (o: WaitingOrder) => void; onPrint: (shipmentId: number) => void;
  onOpen: (shipmentId: number) => void;
}) {
  const t = useT();
  const intl = useIntl();
  const [createLabels, { isLoading: labelling }] = useCreateLabelsMutation();
  const [voidLabels] = useVoidLabelsMutation();
  const [ship, { isLoading: shipping }] = useShipShipmentsMutation();
  const columns: ColumnsType<WaitingOrder> = [
    { key: 'order', title: t('shipping.col.order'), fixed: 'left', render: (_, o) => twoLines(<Typography.Text strong>{o.soNumber}</Typography.Text>, o.referenceNumber) },
    { key: 'client', title: t('shipping.col.client'), dataIndex: 'customerName' },
    { key: 'shipTo', title: t('shipping.col.shipTo'), render: (_, o) => twoLines(o.shipToName ?? '—', o.shipToZip) },
    { key: 'cartons', title: t('shipping.col.cartons'), align: 'right', render: (_, o) => twoLines(intl.formatNumber(o.cartons), o.weightKg === null ? '—' : `${intl.formatNumber(o.weightKg)} kg`) },
    { key: 'requested', title: t('shipping.col.requested'), render: (_, o) => o.requestedShipDate ?? '—' },
    { key: 'shipment', title: t('shipping.col.shipment'), render: (_, o) => (o.shipmentNumber && o.shipmentId ? twoLines(<ShipmentLink id={o.shipmentId} number={o.shipmentNumber} onOpen={onOpen} />, o.shipmentStatus && <StatusTag kind="SHIPMENT" status={o.shipmentStatus} />) : '—') },
    { key: 'service', title: t('shipping.col.service'), render: (_, o) => twoLines(o.serviceName ?? o.carrierService ?? '—', money(o.rateMinor)) },
    {
      key: 'exception', title: t('shipping.col.exception'),
      render: (_, o) => {
        const e = exceptionParts(o.exception);
        return e ? <Tooltip title={e.text}><Tag color="red" data-testid="exception-tag">{e.kind}</Tag></Tooltip> : null;
      },
    },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, o) => {
        const a = rowActions(o);
        return (
          <Space size={0} wrap={false}>
            {a.rate && <Button type="link" size="small" icon={<DollarOutlined />} onClick={() => onRate(o)} data-testid="rate-one">{t('shipping.rate')}</Button>}
            {a.label && (
              <Button type="link" size="small" icon={<TagsOutlined />} loading={labelling} data-testid="label-one"
                onClick={async () => { const r = await runMutation(createLabels({ orderId: o.orderId })); if (r) onPrint(r.data.shipmentId); }}>{t('shipping.label')}</Button>
            )}
            {a.print && <Button type="link" size="small" icon={<PrinterOutlined />} onClick={() => onPrint(o.shipmentId!)} data-testid="print-one">{t('shipping.print')}</Button>}
            {a.void && (
              <Popconfirm title={t('shipping.voidConfirm', { shipment: o.shipmentNumber ?? '' })} okText={t('shipping.void')} cancelText={t('form.close')}
                onConfirm={() => void runMutation(voidLabels({ shipmentId: o.shipmentId! }))}>
                <Button type="link" size="small" danger icon={<CloseCircleOutlined />} data-testid="void-one">{t('shipping.void')}</Button>
              </Popconfirm>
            )}
            {a.ship && (
              <Button type="link" size="small" icon={<SendOutlined />} loading={shipping} data-testid="ship-one"
                onClick={() => void runMutation(ship({ shipmentIds: [o.shipmentId!] }))}>{t('shipping.ship')}</Button>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <Card size="small" data-testid="carrier-group"
      title={<Space wrap><CarOutlined />{group.accountName ?? t('shipping.noCarrier')}
        {group.cutoff && <Tag color="gold">{t('shipping.cutoff', { time: group.cutoff })}</Tag>}
        <Tag>{t('shipping.orders', { count: group.orders.length })}</Tag>
        <Typography.Text type="secondary">{t('shipping.cartons', { count: group.cartons })}</Typography.Text></Space>}>
      <Table<WaitingOrder> size="small" rowKey="orderId" scroll={{ x: 'max-content' }} dataSource={group.orders} columns={columns}
        pagination={group.orders.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
        rowSelection={{ selectedRowKeys: selected.filter((id) => group.orders.some((o) => o.orderId === id)), onChange: (keys) => onSelect(keys.map(Number)) }} />
    </Card>
  );
}

function ShippedView({ shipments, onOpen }: { shipments: ShipmentSummary[]; onOpen: (shipmentId: number) => void }) {
  const t = useT();
  const intl = useIntl();
  const [download] = useDownload();
  if (shipments.length === 0) return <Card><Empty description={t('shipping.noShipped')} /></Card>;
  return (
    <Card size="small">
      <Table<ShipmentSummary> size="small" rowKey="shipmentId" scroll={{ x: 'max-content' }} dataSource={shipments} data-testid="shipped-today"
        pagination={shipments.length > 20 ? { pageSize: 20, size: 'small' } : false}
        columns={[
          { key: 'shipment', title: t('shipping.col.shipment'), fixed: 'left', render: (_, s) => twoLines(<ShipmentLink id={s.shipmentId} number={s.shipmentNumber} onOpen={onOpen} />, s.soNumber) },
          { key: 'client', title: t('shipping.col.client'), dataIndex: 'customerName' },
          { key: 'carrier', title: t('shipping.col.carrier'), render: (_, s) => twoLines(s.accountName ?? '—', s.serviceName) },
          { key: 'packages', title: t('shipping.col.packages'), align: 'right', render: (_, s) => twoLines(intl.formatNumber(s.packages), `${intl.formatNumber(s.weightKg)} kg`) },
          { key: 'rate', title: t('shipping.col.rate'), align: 'right', render: (_, s) => money(s.rateMinor, s.currency) },
          { key: 'status', title: t('shipping.col.status'), render: (_, s) => <StatusTag kind="SHIPMENT" status={s.status} /> },
          { key: 'manifest', title: t('shipping.col.manifest'), render: (_, s) => s.manifestNumber ?? '—' },
          { key: 'actions', title: t('table.actions'), fixed: 'right', render: (_, s) => <Button type="link" size="small" icon={<PrinterOutlined />} onClick={() => void download(shippingFiles.labels([s.shipmentId]), 'labels.pdf')}>{t('shipping.print')}</Button> },
        ]} />
    </Card>
  );
}

/** The end-of-day close per carrier account, and the manifests with their PDF and CSV. */
function CloseView({ warehouseId, toClose, manifests }: { warehouseId: number; toClose: { carrierAccountId: number; accountName: string; customerName: string; shipments: number; packages: number }[]; manifests: ManifestSummary[] }) {
  const t = useT();
  const intl = useIntl();
  const [closeDay, { isLoading }] = useCloseDayMutation();
  const [download] = useDownload();
  const files = (m: ManifestSummary) => (
    <Space size={0}>
      <Button type="link" size="small" icon={<FileTextOutlined />} onClick={() => void download(shippingFiles.manifest(m.manifestId, 'pdf'), `${m.manifestNumber}.pdf`)} data-testid="manifest-pdf">{t('shipping.pdf')}</Button>
      <Button type="link" size="small" onClick={() => void download(shippingFiles.manifest(m.manifestId, 'csv'), `${m.manifestNumber}.csv`)} data-testid="manifest-csv">{t('shipping.csv')}</Button>
    </Space>
  );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title={t('shipping.close.title')}>
        <Typography.Paragraph type="secondary">{t('shipping.close.hint')}</Typography.Paragraph>
        {toClose.length === 0 ? <Empty description={t('shipping.close.none')} /> : (
          <Row gutter={[12, 12]}>
            {toClose.map((c) => (
              <Col key={c.carrierAccountId} xs={24} md={12} xl={8}>
                <Card size="small" data-testid="close-card" title={<Space><CarOutlined />{c.accountName}</Space>} extra={<Typography.Text type="secondary">{c.customerName}</Typography.Text>}>
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <Typography.Text>{t('shipping.close.shipments', { shipments: c.shipments, packages: c.packages })}</Typography.Text>
                    <Popconfirm title={t('shipping.close.confirm', { account: c.accountName, shipments: c.shipments, packages: c.packages })} okText={t('shipping.close.button')} cancelText={t('form.close')}
                      onConfirm={async () => {
                        const r = await runMutation(closeDay({ warehouseId, carrierAccountId: c.carrierAccountId }));
                        if (r) void download(shippingFiles.manifest(r.data.manifestId, 'pdf'), `${r.data.manifestNumber}.pdf`);
                      }}>
                      <Button type="primary" danger loading={isLoading} data-testid="close-day">{t('shipping.close.button')}</Button>
                    </Popconfirm>
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Card>
      <Card size="small" title={t('shipping.manifests')}>
        {manifests.length === 0 ? <Empty description={t('shipping.noManifests')} /> : (
          <Table<ManifestSummary> size="small" rowKey="manifestId" scroll={{ x: 'max-content' }} dataSource={manifests} pagination={false} data-testid="manifests"
            columns={[
              { key: 'number', title: t('shipping.col.manifest'), fixed: 'left', render: (_, m) => twoLines(<Typography.Text strong>{m.manifestNumber}</Typography.Text>, m.accountName) },
              { key: 'day', title: t('shipping.col.day'), dataIndex: 'businessDay' },
              { key: 'packages', title: t('shipping.col.packages'), align: 'right', render: (_, m) => twoLines(t('shipping.close.shipments', { shipments: m.shipments, packages: m.packages }), `${intl.formatNumber(m.totalWeightKg)} kg`) },
              { key: 'total', title: t('shipping.col.total'), align: 'right', render: (_, m) => money(m.totalChargeMinor, m.currency) },
              { key: 'closedAt', title: t('shipping.col.closedAt'), render: (_, m) => twoLines(intl.formatDate(m.closedAt, { dateStyle: 'medium', timeStyle: 'short' }), m.closedBy) },
              { key: 'actions', title: t('table.actions'), fixed: 'right', render: (_, m) => files(m) },
            ]} />
        )}
      </Card>
    </Space>
  );
}
