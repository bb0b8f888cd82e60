import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Checkbox, Descriptions, Input, InputNumber, List, Select, Space, Typography } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { APPROVER_ROLES, RMA_OPEN_STATUSES, type RmaSummary } from '@bolx/contracts';
import { StatusTag } from '../../../components/StatusTag';
import { LinkedTickets } from '../../../components/linked-tickets/LinkedTickets';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useAppSelector } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { ReturnItemsTable } from '../components/ReturnItemsTable';
import { useGetReturnLocationsQuery, useGetRmaQuery, useReceiveItemMutation, useScanReturnMutation } from '../returns-api';
import { useReturnsScope } from '../use-returns-scope';
import { useKeyedAction } from '../../../lib/action-key';

/** /Returns: the returns desk — scan the RMA, order or tracking number, receive each item by scanning it, inspect, dispose. */
export default function ReturnsPage() {
  const t = useT();
  const { warehouseId, canWrite } = useReturnsScope('Returns');
  const role = useAppSelector((s) => s.auth.usertype);
  const [scan, scanning] = useScanReturnMutation();
  const [code, setCode] = useState('');
  const [found, setFound] = useState<RmaSummary[]>([]);
  // ?rmaId=ID: a help desk ticket's "About" opens its RMA here.
  const [params] = useSearchParams();
  const [rmaId, setRmaId] = useState<number | null>(() => Number(params.get('rmaId')) || null);
  const rma = useGetRmaQuery(rmaId ?? 0, { skip: !rmaId });
  const locations = useGetReturnLocationsQuery({ warehouseId, purpose: 'receive' }, { skip: !warehouseId });
  const [receive, receiving] = useReceiveItemMutation();
  const act = useKeyedAction();
  const [item, setItem] = useState('');
  const [quantity, setQuantity] = useState(1);
  const [locationId, setLocationId] = useState<number | undefined>();
  const [approve, setApprove] = useState(false);
  const manager = APPROVER_ROLES.some((r) => String(role ?? '').replace(/\s/g, '') === r);
  const place = locationId ?? locations.data?.[0]?.locationId;

  if (!warehouseId) return <Alert type="warning" showIcon message={t('returns.desk.chooseWarehouse')} />;
  const onScan = async () => {
    if (!code.trim()) return;
    const res = await runMutation(scan({ warehouseId, code: code.trim() }), { silentSuccess: true });
    setFound(res?.rmas ?? []);
    setRmaId(res?.rmas.length === 1 ? res.rmas[0].rmaId : null);
  };
  const onReceive = async () => {
    if (!rmaId || !item.trim() || !place) return;
    const done = await act('receive', { rmaId, code: item.trim(), quantity, locationId: place, ...(approve ? { approveOverReceipt: true } : {}) }, receive);
    if (done) { setItem(''); setQuantity(1); setApprove(false); }
  };
  const detail = rma.data;
  // A finished RMA (closed, expired, cancelled) opens read-only: nothing is left to receive, inspect or dispose of.
  const open = !!detail && RMA_OPEN_STATUSES.includes(detail.status);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="returns-page">
      <Card title={t('routes.Returns')}>
        <Space.Compact style={{ width: '100%', maxWidth: 520 }}>
          <Input prefix={<ScanOutlined />} placeholder={t('returns.desk.scan')} value={code} onChange={(e) => setCode(e.target.value)} onPressEnter={onScan} autoFocus data-testid="return-scan" />
          <Button type="primary" loading={scanning.isLoading} onClick={onScan}>{t('returns.rma.find')}</Button>
        </Space.Compact>
        {found.length > 1 && (
          <List size="small" style={{ marginTop: 12 }} dataSource={found} renderItem={(r) => (
            <List.Item actions={[<Button key="open" type="link" onClick={() => setRmaId(r.rmaId)}>{t('returns.desk.pick')}</Button>]}>
              {r.rmaNumber} · {r.soNumber} · <StatusTag kind="RMA" status={r.status} />
            </List.Item>
          )} />
        )}
      </Card>
      {detail && (
        <Card title={<Space wrap>{detail.rmaNumber}<StatusTag kind="RMA" status={detail.status} /></Space>} data-testid="rma-detail">
          <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} items={[
            { key: 'o', label: t('returns.fields.order'), children: detail.soNumber },
            { key: 'c', label: t('returns.fields.customer'), children: detail.customerName },
            { key: 'r', label: t('returns.fields.resolution'), children: t(`returns.resolution.${detail.resolution}`) },
            { key: 'e', label: t('returns.fields.expiresOn'), children: detail.expiresOn },
          ]} />
          <Typography.Title level={5}>{t('returns.desk.lines')}</Typography.Title>
          <List size="small" dataSource={detail.lines} renderItem={(l) => (
            <List.Item>
              <Typography.Text strong>{l.skuCode}</Typography.Text>&nbsp;{l.description} — {t(`returns.reason.${l.reason}`)} — {l.receivedQuantity} / {l.quantity}
            </List.Item>
          )} />
          {!open && (
            <Alert type="info" showIcon style={{ margin: '12px 0' }} data-testid="rma-finished"
              message={t('returns.desk.nothingLeft', { rmaNumber: detail.rmaNumber, status: t(`returns.status.${detail.status}`) })} />
          )}
          {canWrite && open && (
            <Space wrap style={{ margin: '12px 0' }}>
              <Input prefix={<ScanOutlined />} style={{ width: 220 }} placeholder={t('returns.desk.scanItem')} value={item} onChange={(e) => setItem(e.target.value)} onPressEnter={onReceive} data-testid="return-item-scan" />
              <InputNumber min={1} value={quantity} onChange={(v) => setQuantity(Number(v ?? 1))} aria-label="quantity" />
              <Select style={{ width: 160 }} placeholder={t('returns.desk.receiveInto')} value={place} onChange={setLocationId} aria-label="returns location"
                options={(locations.data ?? []).map((l) => ({ value: l.locationId, label: l.code }))} />
              {manager && <Checkbox checked={approve} onChange={(e) => setApprove(e.target.checked)}>{t('returns.desk.approveOver')}</Checkbox>}
              <Button type="primary" loading={receiving.isLoading} disabled={!item.trim() || !place} onClick={onReceive} data-testid="return-receive">{t('returns.desk.receive')}</Button>
            </Space>
          )}
          <Typography.Title level={5}>{t('returns.desk.items')}</Typography.Title>
          <ReturnItemsTable items={detail.items} canWrite={canWrite && open} />
          <LinkedTickets kind="rma" id={detail.rmaId} number={detail.rmaNumber} />
        </Card>
      )}
    </Space>
  );
}
