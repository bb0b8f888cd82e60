import { useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Space } from 'antd';
import { LinkOutlined, ScanOutlined } from '@ant-design/icons';
import { RETURN_REASONS, type ReturnItem } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { returnItemColumns } from '../components/ReturnItemsTable';
import {
  useGetManualReturnsQuery, useGetReturnLocationsQuery, useLazyFindSkuQuery, useLinkOrderMutation, useReceiveManualMutation, type ReturnSkuMatch,
} from '../returns-api';
import { useReturnsScope } from '../use-returns-scope';
import { useKeyedAction } from '../../../lib/action-key';

/** /ManualReturns: a parcel without an RMA — the client and item found by scan or search, received, disposed, linked to its order later. */
export default function ManualReturnsPage() {
  const t = useT();
  const { warehouseId, customerId, customers, canWrite } = useReturnsScope('ManualReturns');
  const [findSku, skus] = useLazyFindSkuQuery();
  const [receive, receiving] = useReceiveManualMutation();
  const [link] = useLinkOrderMutation();
  const act = useKeyedAction();
  const locations = useGetReturnLocationsQuery({ warehouseId, purpose: 'receive' }, { skip: !warehouseId });
  const [code, setCode] = useState('');
  const [sku, setSku] = useState<ReturnSkuMatch | null>(null);
  const [client, setClient] = useState<number | undefined>(customerId || undefined);
  const [quantity, setQuantity] = useState(1);
  const [reason, setReason] = useState<string>('other');
  const [orderNumber, setOrderNumber] = useState('');
  const [locationId, setLocationId] = useState<number | undefined>();
  const [linking, setLinking] = useState<Record<number, string>>({});
  const place = locationId ?? locations.data?.[0]?.locationId;
  const owner = sku?.customerId ?? client;

  if (!warehouseId) return <Alert type="warning" showIcon message={t('returns.desk.chooseWarehouse')} />;
  const onFind = async () => {
    if (!code.trim()) return;
    const res = await findSku({ warehouseId, ...(client ? { customerId: client } : {}), code: code.trim() }).unwrap().catch(() => []);
    setSku(res.length === 1 ? res[0] : null);
  };
  const onReceive = async () => {
    if (!sku || !owner || !place) return;
    const done = await act('manual', {
      warehouseId, customerId: owner, skuId: sku.skuId, quantity, locationId: place, reason,
      ...(orderNumber.trim() ? { orderNumber: orderNumber.trim() } : {}),
    }, receive);
    if (done) { setSku(null); setCode(''); setQuantity(1); setOrderNumber(''); }
  };
  const columns = [
    ...returnItemColumns(t, canWrite),
    { key: 'customerName', dataIndex: 'customerName', title: t('returns.fields.customer') },
    {
      key: 'soNumber', dataIndex: 'soNumber', title: t('returns.fields.order'),
      render: (v: string | null, r: ReturnItem) => v ?? (canWrite ? (
        <Space.Compact>
          <Input size="small" style={{ width: 120 }} placeholder={t('returns.fields.order')} value={linking[r.itemId] ?? ''} onChange={(e) => setLinking((l) => ({ ...l, [r.itemId]: e.target.value }))} />
          <Button size="small" icon={<LinkOutlined />} disabled={!linking[r.itemId]?.trim()}
            onClick={() => act('link', { itemId: r.itemId, orderNumber: linking[r.itemId].trim() }, link)}>{t('returns.manual.link')}</Button>
        </Space.Compact>
      ) : '—'),
    },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="manual-returns-page">
      {canWrite && (
        <Card title={t('returns.manual.title')}>
          <Form layout="vertical" style={{ maxWidth: 720 }}>
            <Space wrap align="end">
              <Form.Item label={t('returns.manual.client')}>
                <Select style={{ width: 200 }} allowClear value={sku?.customerId ?? client} onChange={(v) => { setClient(v); setSku(null); }}
                  options={customers} />
              </Form.Item>
              <Form.Item label={t('returns.manual.findSku')}>
                <Space.Compact>
                  <Input prefix={<ScanOutlined />} value={code} onChange={(e) => setCode(e.target.value)} onPressEnter={onFind} data-testid="manual-sku" />
                  <Button onClick={onFind}>{t('returns.rma.find')}</Button>
                </Space.Compact>
              </Form.Item>
            </Space>
            {(skus.data?.length ?? 0) > 1 && !sku && (
              <Select style={{ width: 320, marginBottom: 12 }} placeholder={t('returns.manual.findSku')} onChange={(id) => setSku(skus.data!.find((s) => s.skuId === id) ?? null)}
                options={skus.data!.map((s) => ({ value: s.skuId, label: `${s.skuCode} — ${s.customerName}` }))} />
            )}
            {skus.data && skus.data.length === 0 && <Alert type="warning" showIcon message="No Record Found" style={{ marginBottom: 12 }} />}
            {sku && <Alert type="success" message={`${sku.skuCode} — ${sku.description} (${sku.customerName})`} style={{ marginBottom: 12 }} />}
            <Space wrap align="end">
              <Form.Item label={t('returns.fields.quantity')}><InputNumber min={1} value={quantity} onChange={(v) => setQuantity(Number(v ?? 1))} /></Form.Item>
              <Form.Item label={t('returns.fields.reason')}>
                <Select style={{ width: 170 }} value={reason} onChange={setReason} options={RETURN_REASONS.map((r) => ({ value: r, label: t(`returns.reason.${r}`) }))} />
              </Form.Item>
              <Form.Item label={t('returns.desk.receiveInto')}>
                <Select style={{ width: 160 }} value={place} onChange={setLocationId} options={(locations.data ?? []).map((l) => ({ value: l.locationId, label: l.code }))} />
              </Form.Item>
              <Form.Item label={t('returns.manual.orderNumber')}><Input value={orderNumber} onChange={(e) => setOrderNumber(e.target.value)} /></Form.Item>
              <Form.Item><Button type="primary" disabled={!sku || !place} loading={receiving.isLoading} onClick={onReceive} data-testid="manual-receive">{t('returns.desk.receive')}</Button></Form.Item>
            </Space>
          </Form>
        </Card>
      )}
      <DataTablePage<ReturnItem>
        title={t('routes.ManualReturns')}
        subtitle={t('returns.manual.list')}
        rowKey="itemId"
        columns={columns}
        useList={useGetManualReturnsQuery}
        scopeFilters={warehouseAndCustomerScope}
      />
    </Space>
  );
}
