import { useState } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, PrinterOutlined, SearchOutlined, SendOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { CreateManualShipmentInput, ShipmentSummary } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { StatusTag } from '../../../components/StatusTag';
import { formFieldErrors } from '../../../lib/api/api-error';
import { shippingFiles, useGetCarrierAccountsQuery } from '../../../lib/api/shipping-api';
import { useT } from '../../../lib/i18n/use-t';
import {
  useCreateManualShipmentMutation, useGetManualShipmentsQuery, useGetRmasQuery, useLazyGetShippableStockQuery, type StockRow,
} from '../returns-api';
import { useReturnsScope } from '../use-returns-scope';
import { CarrierFields, type CarrierValues, carrierInput } from './CarrierFields';
import { useKeyedAction } from '../../../lib/action-key';

interface Line { key: string; skuId: number; skuCode: string; locationId: number; locationCode: string; lot: string; pallet: string; available: number; quantity: number }
interface ShipValues extends CarrierValues {
  rmaId?: number; reference?: string;
  shipTo: { name: string; address1: string; address2?: string; city: string; state?: string; zip: string; country?: string };
}

/**
 * The /RMA screen's manual shipping view: stock sent by hand (a replacement, an exchange, optionally for an RMA) —
 * lines chosen from where the client's stock is free, a ship-to, and a carrier account's label or a tracking
 * number typed in; below, the shipments made this way with their labels to print.
 */
export function ManualShipping() {
  const t = useT();
  const { warehouseId, customerId, canWrite } = useReturnsScope('RMA');
  const [form] = Form.useForm<ShipValues>();
  const [lines, setLines] = useState<Line[]>([]);
  const [lineError, setLineError] = useState<Record<number, string>>({});
  const [search, setSearch] = useState('');
  const [findStock, stock] = useLazyGetShippableStockQuery();
  const [create, creating] = useCreateManualShipmentMutation();
  const act = useKeyedAction();
  const [download] = useDownload();
  const accounts = useGetCarrierAccountsQuery(customerId, { skip: !customerId });
  const rmas = useGetRmasQuery({ filters: { warehouseId, customerId }, searchQuery: '', pageNumber: 1, pageSize: 100 }, { skip: !customerId });
  const shipments = useGetManualShipmentsQuery({ filters: { warehouseId, customerId }, searchQuery: '', pageNumber: 1, pageSize: 20 }, { skip: !customerId });

  const find = () => search.trim() && findStock({ filters: { warehouseId, customerId, takeableOnly: true }, searchQuery: search.trim(), pageNumber: 1, pageSize: 20 });
  const add = (r: StockRow) => setLines((all) => {
    const key = `${r.skuId}|${r.locationId}|${r.lot}|${r.pallet}`;
    if (all.some((l) => l.key === key)) return all;
    return [...all, { key, skuId: r.skuId, skuCode: r.skuCode, locationId: r.locationId, locationCode: r.locationCode, lot: r.lot, pallet: r.pallet, available: r.available, quantity: 1 }];
  });
  const setQuantity = (key: string, quantity: number) => setLines((all) => all.map((l) => (l.key === key ? { ...l, quantity } : l)));

  const submit = async (values: ShipValues) => {
    setLineError({});
    const body: CreateManualShipmentInput = {
      warehouseId, customerId, ...(values.rmaId ? { rmaId: values.rmaId } : {}), ...(values.reference?.trim() ? { reference: values.reference.trim() } : {}),
      shipTo: values.shipTo,
      lines: lines.map((l) => ({ skuId: l.skuId, locationId: l.locationId, quantity: l.quantity, ...(l.lot ? { lot: l.lot } : {}), ...(l.pallet ? { pallet: l.pallet } : {}) })),
      ...carrierInput(values),
    };
    const done = await act('manual-shipment', body, create, {
      onError: (error) => {
        form.setFields(formFieldErrors(error, (name) => name[0] !== 'lines') as never);
        setLineError(Object.fromEntries(formFieldErrors(error, (name) => name[0] === 'lines' && typeof name[1] === 'number').map((f) => [f.name[1] as number, f.errors[0]])));
      },
    });
    if (done) {
      setLines([]);
      form.resetFields();
    }
  };

  const stockColumns: ColumnsType<StockRow> = [
    {
      key: 'sku', title: t('returns.fields.sku'),
      render: (_: unknown, r) => <div style={{ minWidth: 160 }}><Typography.Text strong>{r.skuCode}</Typography.Text><br /><Typography.Text type="secondary">{r.skuDescription}</Typography.Text></div>,
    },
    { key: 'location', dataIndex: 'locationCode', title: t('returns.ship.location') },
    { key: 'lot', dataIndex: 'lot', title: t('returns.ship.lot'), render: (v: string) => v || '—' },
    { key: 'available', dataIndex: 'available', title: t('returns.ship.available'), align: 'right' },
    { key: 'add', width: 60, render: (_: unknown, r) => <Button size="small" icon={<PlusOutlined />} disabled={r.available <= 0} onClick={() => add(r)} aria-label={`add ${r.skuCode} ${r.locationCode}`} /> },
  ];
  const lineColumns: ColumnsType<Line> = [
    { key: 'sku', dataIndex: 'skuCode', title: t('returns.fields.sku') },
    { key: 'location', dataIndex: 'locationCode', title: t('returns.ship.location') },
    { key: 'lot', dataIndex: 'lot', title: t('returns.ship.lot'), render: (v: string) => v || '—' },
    {
      key: 'quantity', title: t('returns.fields.quantity'),
      render: (_: unknown, l, i) => (
        <Form.Item style={{ margin: 0 }} validateStatus={lineError[i] ? 'error' : undefined} help={lineError[i]}>
          <InputNumber min={1} max={l.available} value={l.quantity} onChange={(v) => setQuantity(l.key, Number(v ?? 1))} aria-label={`ship quantity ${l.skuCode}`} />
        </Form.Item>
      ),
    },
    { key: 'remove', width: 60, render: (_: unknown, l) => <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={() => setLines((all) => all.filter((x) => x.key !== l.key))} aria-label={`remove ${l.skuCode}`} /> },
  ];
  const shipmentColumns: ColumnsType<ShipmentSummary> = [
    { key: 'shipmentNumber', dataIndex: 'shipmentNumber', title: t('returns.ship.shipment') },
    { key: 'status', dataIndex: 'status', title: t('returns.fields.status'), render: (v: string) => <StatusTag kind="SHIPMENT" status={v} /> },
    { key: 'rmaNumber', dataIndex: 'rmaNumber', title: t('returns.fields.rmaNumber'), render: (v: string | null) => v ?? '—' },
    { key: 'shipToName', dataIndex: 'shipToName', title: t('returns.ship.shipTo') },
    { key: 'service', title: t('returns.ship.carrier'), render: (_: unknown, r) => [r.accountName, r.serviceName].filter(Boolean).join(' · ') },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('returns.fields.createdAt'), render: (v: string) => new Date(v).toLocaleString() },
    { key: 'label', render: (_: unknown, r) => <Button size="small" icon={<PrinterOutlined />} onClick={() => download(shippingFiles.labels([r.shipmentId]), `${r.shipmentNumber}.pdf`)}>{t('returns.ship.label')}</Button> },
  ];

  if (!customerId || !warehouseId) return null;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="manual-shipping">
      {canWrite && (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} initialValues={{ packages: [{ weightKg: 1, lengthCm: 30, widthCm: 20, heightCm: 10 }] }}>
          <Typography.Title level={5}>{t('returns.ship.lines')}</Typography.Title>
          <Space.Compact style={{ maxWidth: 480, width: '100%', marginBottom: 8 }}>
            <Input placeholder={t('returns.ship.findStock')} value={search} onChange={(e) => setSearch(e.target.value)} onPressEnter={(e) => { e.preventDefault(); find(); }} data-testid="manual-stock-search" />
            <Button icon={<SearchOutlined />} onClick={find}>{t('returns.rma.find')}</Button>
          </Space.Compact>
          {stock.data && <Table rowKey="uniqueid" size="small" pagination={false} columns={stockColumns} dataSource={stock.data.items} scroll={{ x: 'max-content' }} style={{ marginBottom: 12 }} />}
          <Table rowKey="key" size="small" pagination={false} columns={lineColumns} dataSource={lines} scroll={{ x: 'max-content' }} locale={{ emptyText: t('returns.ship.noLines') }} data-testid="manual-lines" />

          <Typography.Title level={5} style={{ marginTop: 16 }}>{t('returns.ship.shipTo')}</Typography.Title>
          <Row gutter={12}>
            <Col xs={24} md={8}><Form.Item name={['shipTo', 'name']} label={t('returns.ship.name')} rules={[{ required: true, whitespace: true }]}><Input maxLength={150} /></Form.Item></Col>
            <Col xs={24} md={8}><Form.Item name={['shipTo', 'address1']} label={t('returns.ship.address1')} rules={[{ required: true, whitespace: true }]}><Input maxLength={200} /></Form.Item></Col>
            <Col xs={24} md={8}><Form.Item name={['shipTo', 'address2']} label={t('returns.ship.address2')}><Input maxLength={200} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name={['shipTo', 'city']} label={t('returns.ship.city')} rules={[{ required: true, whitespace: true }]}><Input maxLength={100} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name={['shipTo', 'state']} label={t('returns.ship.state')}><Input maxLength={100} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name={['shipTo', 'zip']} label={t('returns.ship.zip')} rules={[{ required: true, whitespace: true }]}><Input maxLength={20} /></Form.Item></Col>
            <Col xs={12} md={6}><Form.Item name={['shipTo', 'country']} label={t('returns.ship.country')}><Input maxLength={100} /></Form.Item></Col>
          </Row>
          <Row gutter={12}>
            <Col xs={24} md={8}>
              <Form.Item name="rmaId" label={t('returns.ship.forRma')}>
                <Select allowClear showSearch optionFilterProp="label" options={(rmas.data?.items ?? []).map((r) => ({ value: r.rmaId, label: `${r.rmaNumber} · ${r.soNumber}` }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}><Form.Item name="reference" label={t('returns.fields.reference')}><Input maxLength={100} /></Form.Item></Col>
          </Row>
          <CarrierFields accounts={accounts.data ?? []} />
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} disabled={lines.length === 0} loading={creating.isLoading} data-testid="manual-ship">{t('returns.ship.submit')}</Button>
        </Form>
      )}
      <div>
        <Typography.Title level={5}>{t('returns.ship.recent')} <Tag>{shipments.data?.totalCount ?? 0}</Tag></Typography.Title>
        <Table rowKey="uniqueid" size="small" loading={shipments.isFetching} columns={shipmentColumns} dataSource={shipments.data?.items ?? []} pagination={false} scroll={{ x: 'max-content' }} data-testid="manual-shipments" />
      </div>
    </Space>
  );
}
