import { Link } from 'react-router';
import { Button, Descriptions, Drawer, Empty, Grid, Result, Skeleton, Space, Table, Tabs, Tag, Timeline, Typography } from 'antd';
import { PrinterOutlined, TagsOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import type { ShipmentDetail } from '@bolx/contracts';
import { LinkedTickets, ticketLinkPath } from '../../../components/linked-tickets/LinkedTickets';
import { StatusTag } from '../../../components/StatusTag';
import { useDownload } from '../../../components/download/use-download';
import { shippingFiles, useGetShipmentQuery, useGetShipmentTrackingQuery } from '../../../lib/api/shipping-api';
import { useT } from '../../../lib/i18n/use-t';
import { money } from '../shipping-model';
import '../messages';

/**
 * One parcel shipment of any day or kind, by id (a help desk ticket's "About", a dashboard row): its carrier,
 * service and rate, ship-to, its order or RMA, packages with their tracking numbers and labels, the carrier's
 * tracking events, its status history, and the tickets about it. Another customer's shipment is not found.
 */
export function ShipmentDrawer({ shipmentId, onClose }: { shipmentId: number | undefined; onClose: () => void }) {
  const t = useT();
  const screens = Grid.useBreakpoint();
  const { data, isLoading, isError, error, refetch } = useGetShipmentQuery(shipmentId ?? 0, { skip: !shipmentId });
  const missing = isError && (error as { status?: number } | undefined)?.status === 404;
  return (
    <Drawer
      open={shipmentId !== undefined}
      onClose={onClose}
      width={screens.md ? 880 : '100%'}
      destroyOnHidden
      className="bolx-shipment-drawer"
      data-testid="shipment-drawer"
      title={data ? <Space wrap><span data-testid="shipment-title">{t('shipping.view.title', { number: data.shipmentNumber })}</span><StatusTag kind="SHIPMENT" status={data.status} /></Space> : t('shipping.view.header')}
    >
      {isLoading ? <Skeleton active paragraph={{ rows: 10 }} />
        : missing ? <Result status="404" title={t('shipping.view.notFound')} />
        : isError || !data ? <Result status="warning" title={t('table.loadError')} extra={<Button onClick={() => refetch()}>{t('table.retry')}</Button>} />
        : <ShipmentBody shipment={data} />}
    </Drawer>
  );
}

function ShipmentBody({ shipment: s }: { shipment: ShipmentDetail }) {
  const t = useT();
  const intl = useIntl();
  const [download, downloading] = useDownload();
  const when = (at: string | null) => (at ? intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
  const labelled = s.packageList.some((p) => !p.voided);
  const hasSscc = s.packageList.some((p) => !p.voided && p.sscc);
  const address = [s.shipTo.address1, s.shipTo.address2, [s.shipTo.city, s.shipTo.state, s.shipTo.zip].filter(Boolean).join(' '), s.shipTo.country].filter(Boolean);
  const tabs = [
    { key: 'packages', label: t('shipping.view.packages', { count: s.packageList.filter((p) => !p.voided).length }), children: <Packages shipment={s} /> },
    ...(s.lines.length ? [{ key: 'lines', label: t('shipping.view.lines', { count: s.lines.length }), children: <Lines shipment={s} /> }] : []),
    { key: 'tracking', label: t('shipping.view.tracking'), children: <Tracking shipmentId={s.shipmentId} /> },
    {
      key: 'history', label: t('shipping.view.history'),
      children: (
        <Timeline data-testid="shipment-history" items={[
          { children: t('shipping.view.created', { at: when(s.createdAt) }) },
          ...s.history.map((h) => ({ children: `${h.from} → ${h.to} · ${when(h.at)}${h.username ? ` · ${h.username}` : ''}${h.reason ? ` · ${h.reason}` : ''}` })),
        ]} />
      ),
    },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="shipment-view">
      {labelled && (
        <Space wrap>
          <Button icon={<PrinterOutlined />} loading={downloading} onClick={() => void download(shippingFiles.labels([s.shipmentId]), `labels-${s.shipmentNumber}.pdf`)}>{t('shipping.view.printLabels')}</Button>
          {hasSscc && <Button icon={<TagsOutlined />} onClick={() => void download(shippingFiles.labels([s.shipmentId], 'pdf', 'sscc'), `sscc-${s.shipmentNumber}.pdf`)}>{t('shipping.bulk.sscc')}</Button>}
        </Space>
      )}
      <Descriptions size="small" bordered column={{ xs: 1, sm: 1, md: 2 }} data-testid="shipment-facts" items={[
        { key: 'client', label: t('shipping.col.client'), children: s.customerName },
        { key: 'warehouse', label: t('shipping.warehouse'), children: s.warehouseName },
        {
          key: 'order', label: s.orderId ? t('shipping.col.order') : s.rmaId ? t('shipping.view.rma') : t('shipping.view.kind'),
          children: s.orderId ? (
            <Space wrap size={4}>
              <Link to={ticketLinkPath({ kind: 'order', id: s.orderId })} data-testid="shipment-order">{s.soNumber}</Link>
              {s.orderStatus && <StatusTag kind="SALES_ORDER" status={s.orderStatus} />}
            </Space>
          ) : s.rmaId ? <Link to={ticketLinkPath({ kind: 'rma', id: s.rmaId })}>{s.rmaNumber}</Link> : <Tag>{t(`shipping.kind.${s.kind}`)}</Tag>,
        },
        { key: 'reference', label: t('shipping.view.reference'), children: s.referenceNumber ?? '—' },
        { key: 'carrier', label: t('shipping.col.carrier'), children: s.accountName ?? '—' },
        { key: 'service', label: t('shipping.col.service'), children: s.serviceName ? `${s.serviceName}${s.serviceCode && s.serviceCode !== s.serviceName ? ` (${s.serviceCode})` : ''}` : '—' },
        { key: 'rate', label: t('shipping.col.rate'), children: <>{money(s.rateMinor, s.currency)}{s.rateReason && <div><Typography.Text type="secondary">{s.rateReason}</Typography.Text></div>}</> },
        { key: 'tracking', label: t('shipping.view.trackingNumbers'), children: s.trackingNumbers.length ? <Space direction="vertical" size={0}>{s.trackingNumbers.map((n) => <Typography.Text key={n} copyable>{n}</Typography.Text>)}</Space> : '—' },
        {
          key: 'shipTo', label: t('shipping.col.shipTo'),
          children: <>{s.shipTo.name ?? '—'}{address.map((line) => <div key={line}><Typography.Text type="secondary">{line}</Typography.Text></div>)}{s.residential && <Tag style={{ marginTop: 4 }}>{t('shipping.view.residential')}</Tag>}</>,
        },
        { key: 'shipDay', label: t('shipping.col.day'), children: s.shipDay ?? '—' },
        { key: 'weight', label: t('shipping.col.weight'), children: `${intl.formatNumber(s.weightKg)} kg` },
        { key: 'manifest', label: t('shipping.col.manifest'), children: s.manifestNumber ?? '—' },
        { key: 'labelled', label: t('shipping.view.labelled'), children: when(s.labelledAt) },
        { key: 'shipped', label: t('shipping.view.shipped'), children: when(s.shippedAt) },
        ...(s.closedAt ? [{ key: 'closed', label: t('shipping.col.closedAt'), children: when(s.closedAt) }] : []),
        ...(s.exception ? [{ key: 'exception', label: t('shipping.col.exception'), children: <Typography.Text type="danger">{s.exception}</Typography.Text> }] : []),
      ]} />
      <LinkedTickets kind="shipment" id={s.shipmentId} number={s.shipmentNumber} card />
      <Tabs items={tabs} />
    </Space>
  );
}

function Packages({ shipment }: { shipment: ShipmentDetail }) {
  const t = useT();
  const intl = useIntl();
  const dims = (p: ShipmentDetail['packageList'][number]) => (p.lengthCm && p.widthCm && p.heightCm ? `${p.lengthCm}×${p.widthCm}×${p.heightCm} cm` : '—');
  if (shipment.packageList.length === 0) return <Empty description={t('shipping.view.noPackages')} />;
  return (
    <Table size="small" rowKey="packageId" pagination={false} scroll={{ x: 'max-content' }} dataSource={shipment.packageList} data-testid="shipment-packages"
      rowClassName={(p) => (p.voided ? 'bolx-shipment-drawer__voided' : '')}
      columns={[
        { key: 'no', title: '#', dataIndex: 'packageNo', width: 40 },
        { key: 'carton', title: t('shipping.view.carton'), render: (_, p) => p.cartonNumber ?? '—' },
        { key: 'tracking', title: t('shipping.view.trackingNumber'), render: (_, p) => <>{p.trackingNumber ?? '—'}{p.voided && <Tag color="default" style={{ marginLeft: 6 }}>{t('shipping.view.voided')}</Tag>}</> },
        { key: 'sscc', title: 'SSCC', render: (_, p) => p.sscc ?? '—' },
        { key: 'weight', title: t('shipping.col.weight'), align: 'right', render: (_, p) => (p.weightKg === null ? '—' : `${intl.formatNumber(p.weightKg)} kg`) },
        { key: 'dims', title: t('shipping.view.dimensions'), render: (_, p) => dims(p) },
        { key: 'charge', title: t('shipping.view.charge'), align: 'right', render: (_, p) => money(p.chargeMinor, shipment.currency) },
      ]} />
  );
}

function Lines({ shipment }: { shipment: ShipmentDetail }) {
  const t = useT();
  return (
    <Table size="small" rowKey="lineNo" pagination={false} scroll={{ x: 'max-content' }} dataSource={shipment.lines}
      columns={[
        { key: 'no', title: '#', dataIndex: 'lineNo', width: 40 },
        { key: 'sku', title: 'SKU', render: (_, l) => <>{l.skuCode}<div><Typography.Text type="secondary">{l.description}</Typography.Text></div></> },
        { key: 'location', title: t('shipping.view.location'), dataIndex: 'locationCode' },
        { key: 'lot', title: t('shipping.view.lot'), render: (_, l) => l.lot || '—' },
        { key: 'qty', title: t('shipping.view.quantity'), dataIndex: 'quantity', align: 'right' },
      ]} />
  );
}

/** The carrier's tracking events, asked for when the tab opens (the tab pane mounts then). */
function Tracking({ shipmentId }: { shipmentId: number }) {
  const t = useT();
  const intl = useIntl();
  const { data, isLoading, isError, refetch } = useGetShipmentTrackingQuery(shipmentId);
  if (isLoading) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (isError || !data) return <Result status="warning" title={t('table.loadError')} extra={<Button onClick={() => refetch()}>{t('table.retry')}</Button>} />;
  const events = data.parcels.flatMap((p) => p.events.map((e) => ({ ...e, trackingNumber: p.trackingNumber })));
  if (events.length === 0) return <Empty description={t('shipping.view.noTracking')} />;
  return (
    <Timeline items={events.map((e) => ({
      children: <>{intl.formatDate(e.at, { dateStyle: 'medium', timeStyle: 'short' })} · <Typography.Text strong>{e.status}</Typography.Text> · {e.detail}<div><Typography.Text type="secondary">{e.trackingNumber}</Typography.Text></div></>,
    }))} />
  );
}
