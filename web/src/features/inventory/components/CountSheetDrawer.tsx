import { useState } from 'react';
import { Alert, Button, Descriptions, Form, InputNumber, Popconfirm, Table, Typography } from 'antd';
import { CheckOutlined, DownloadOutlined, SafetyCertificateOutlined, StopOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { useDownload } from '../../../components/download/use-download';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useKeyedAction } from '../../../lib/action-key';
import {
  useApproveCycleCountMutation, useCancelCycleCountMutation, useEnterCountsMutation, useGetCycleCountLinesQuery, type CycleCountLine,
} from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';
import { CountHistory } from './CountHistory';
import { OverrideApprovalModal } from './OverrideApprovalModal';
import { StatusTag } from '../../../components/StatusTag';
import { mayAct } from '../../../lib/status-actions';
import '../inventory.css';

type SheetValues = { counts: Record<string, number | null | undefined> };

/**
 * A count's sheet: counters enter quantities (expected hidden on a blind count), then recount the lines with a
 * variance; a manager sees each variance, approves (posting the differences) or cancels.
 */
export function CountSheetDrawer({ cycleCountId, onClose }: { cycleCountId?: number; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<SheetValues>();
  const countRule = rules(t).notNegative();
  const { canWrite, canApprove } = useInventoryScope('CycleCount');
  const { data, isFetching } = useGetCycleCountLinesQuery(cycleCountId ?? 0, { skip: !cycleCountId, refetchOnMountOrArgChange: true });
  const [enter] = useEnterCountsMutation();
  const [approve] = useApproveCycleCountMutation();
  const [cancel] = useCancelCycleCountMutation();
  const [download, downloading] = useDownload();
  const act = useKeyedAction();
  const [overriding, setOverriding] = useState(false);
  const count = data?.count.cycleCountId === cycleCountId ? data?.count : undefined;
  const lines = count ? data!.lines : [];
  const phase = count?.status;
  const entering = canWrite && (phase === 'Open' || phase === 'Recount');
  const editable = (l: CycleCountLine) => (phase === 'Open' ? true : phase === 'Recount' && l.needsRecount);
  // Counters never see what the system expects on a blind count while they count.
  const showExpected = !!count && !(count.isBlind && entering) && lines.some((l) => l.expectedQty !== null);

  const submit = async (v: SheetValues) => {
    if (!count) return undefined;
    const counts = Object.entries(v.counts ?? {})
      .filter(([id, q]) => q !== null && q !== undefined && editable(lines.find((l) => l.lineId === Number(id))!))
      .map(([id, q]) => ({ lineId: Number(id), quantity: Number(q) }));
    return act(`counts:${count.cycleCountId}`, { cycleCountId: count.cycleCountId, counts }, enter);
  };

  const columns: ColumnsType<CycleCountLine> = [
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inventory.fields.location') },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inventory.fields.sku'), render: (v: string, l) => <span title={l.skuDescription}>{v}</span> },
    { key: 'lot', dataIndex: 'lot', title: t('inventory.fields.lot'), render: (v: string) => v || '—' },
    { key: 'pallet', dataIndex: 'pallet', title: t('inventory.fields.pallet'), render: (v: string) => v || '—' },
    ...(showExpected ? [{ key: 'expectedQty', dataIndex: 'expectedQty', title: t('inventory.fields.expected'), align: 'right' as const }] : []),
    {
      key: 'countedQty', title: t('inventory.fields.counted'), align: 'right',
      render: (_: unknown, l: CycleCountLine) => (phase === 'Open' && entering ? (
        <Form.Item name={['counts', String(l.lineId)]} rules={[countRule]} className="bolx-count-input">
          <InputNumber precision={0} size="small" style={{ width: 100 }} aria-label={`${t('inventory.fields.counted')} ${l.locationCode} ${l.skuCode}`} />
        </Form.Item>
      ) : l.countedQty ?? '—'),
    },
    {
      key: 'recountQty', title: t('inventory.fields.recount'), align: 'right',
      render: (_: unknown, l: CycleCountLine) => (phase === 'Recount' && entering && l.needsRecount ? (
        <Form.Item name={['counts', String(l.lineId)]} rules={[countRule]} className="bolx-count-input">
          <InputNumber precision={0} size="small" style={{ width: 100 }} aria-label={`${t('inventory.fields.recount')} ${l.locationCode} ${l.skuCode}`} />
        </Form.Item>
      ) : l.recountQty ?? (l.needsRecount ? <StatusTag kind="CYCLE_COUNT" status="Recount" /> : '—')),
    },
    ...(showExpected ? [{
      key: 'variance', dataIndex: 'variance', title: t('inventory.fields.variance'), align: 'right' as const,
      render: (v: number | null) => (v === null ? '—' : <Typography.Text strong type={v === 0 ? undefined : v < 0 ? 'danger' : 'success'}>{v > 0 ? `+${v}` : v}</Typography.Text>),
    }] : []),
  ];

  const initialCounts = Object.fromEntries(lines.map((l) => [String(l.lineId), phase === 'Recount' ? l.recountQty : l.countedQty]));
  const open = cycleCountId !== undefined;
  // The count's moves come from the status machine's table, the one the server checks.
  const closable = mayAct('CYCLE_COUNT', phase, 'cancel');
  // Nobody approves a count they entered lines of: the server refuses it, so the button is not offered…
  const approvable = canApprove && mayAct('CYCLE_COUNT', phase, 'approve') && !data?.countedByYou;
  // …but a Super Administrator, who may override that with a reason (the server says who: mayOverride).
  const overridable = canApprove && mayAct('CYCLE_COUNT', phase, 'approve') && !!data?.countedByYou && !!data?.mayOverride;
  const approveWith = (overrideReason?: string) =>
    act(`approveCount:${count!.cycleCountId}`, { cycleCountId: count!.cycleCountId, overrideReason }, approve);

  return (
    <>
    <FormDrawer<SheetValues>
      open={open}
      title={count ? t('inventory.count.sheetTitle', { countNo: count.countNo }) : t('routes.CycleCount')}
      onClose={onClose}
      form={form}
      width={960}
      loading={!count || isFetching}
      initialValues={{ counts: initialCounts }}
      readOnly={!entering}
      // Beside a destructive "Cancel Count", the harmless way out says Close, never Cancel.
      dismissLabel={t('form.close')}
      submitLabel={t(phase === 'Recount' ? 'inventory.count.saveRecounts' : 'inventory.count.saveCounts')}
      onSubmit={submit}
      extraActions={count && (
        <>
          <Button icon={<DownloadOutlined />} loading={downloading}
            onClick={() => void download({ url: 'Warehouse/CycleCount/DownloadCountSheetExcel', method: 'GET', params: { cycleCountId: count.cycleCountId } }, `count-sheet-${count.countNo}.xlsx`)}>
            {t('inventory.count.sheet')}
          </Button>
          {canApprove && closable && (
            <Popconfirm title={t('inventory.count.confirmCancel')} okText={t('inventory.count.cancel')} okButtonProps={{ danger: true }}
              cancelText={t('inventory.count.keep')} onConfirm={async () => {
                if (await act(`cancelCount:${count.cycleCountId}`, { cycleCountId: count.cycleCountId }, cancel)) onClose();
              }}>
              <Button danger icon={<StopOutlined />}>{t('inventory.count.cancel')}</Button>
            </Popconfirm>
          )}
          {approvable && (
            <Popconfirm title={t('inventory.count.confirmApprove')} okText={t('inventory.approve')} cancelText={t('form.close')} onConfirm={async () => {
              if (await approveWith()) onClose();
            }}>
              <Button type="primary" icon={<CheckOutlined />}>{t('inventory.approve')}</Button>
            </Popconfirm>
          )}
          {overridable && (
            <Button type="primary" danger icon={<SafetyCertificateOutlined />} onClick={() => setOverriding(true)}>{t('inventory.count.override')}</Button>
          )}
        </>
      )}
    >
      {count && (
        <>
          <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('inventory.fields.status')}><StatusTag kind="CYCLE_COUNT" status={count.status} /></Descriptions.Item>
            <Descriptions.Item label={t('inventory.fields.customer')}>{count.customerName}</Descriptions.Item>
            <Descriptions.Item label={t('inventory.fields.countDate')}>{count.countDate}</Descriptions.Item>
            <Descriptions.Item label={t('inventory.fields.selection')}>
              {count.selection === 'location' ? `${count.locationFrom} – ${count.locationTo}` : count.selection === 'abc' ? `${t('inventory.fields.abcClass')} ${count.abcClass}` : t('inventory.selection.sku')}
            </Descriptions.Item>
            <Descriptions.Item label={t('inventory.fields.isBlind')}>{t(count.isBlind ? 'inventory.yes' : 'inventory.no')}</Descriptions.Item>
            <Descriptions.Item label={t('inventory.count.progress')}>{`${count.countedLines} / ${count.lineCount}`}</Descriptions.Item>
          </Descriptions>
          {phase === 'Recount' && <Alert type="warning" showIcon message={t('inventory.count.recountHint', { count: count.recountLines })} style={{ marginBottom: 12 }} />}
          {phase === 'Counted' && canApprove && (
            <Alert type="info" showIcon style={{ marginBottom: 12 }}
              message={t(approvable ? 'inventory.count.approveHint' : overridable ? 'inventory.count.overrideHint' : 'inventory.count.countedByYouHint')} />
          )}
          <Table<CycleCountLine> rowKey="lineId" size="small" columns={columns} dataSource={lines} pagination={false}
            scroll={{ x: 'max-content', y: 480 }} rowClassName={(l) => (editable(l) && entering ? '' : 'bolx-count__line--done')} />
          <CountHistory history={data!.history} />
        </>
      )}
    </FormDrawer>
    {count && (
      <OverrideApprovalModal countNo={count.countNo} open={overriding} onClose={() => setOverriding(false)}
        onApprove={async (reason) => {
          const done = await approveWith(reason);
          if (done) onClose();
          return done;
        }} />
    )}
    </>
  );
}
