import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, Col, Form, Input, InputNumber, Modal, Row, Segmented, Select, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { MinusCircleOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { CHARGE_TYPES, CHARGE_TYPE_KEYS, INVOICE_STATUSES, addDays, formatMinor, monthOfDay, type ChargeType, type FilterLabel } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useWarehouseDay } from '../../../lib/use-warehouse-day';
import {
  useAddAccessorialMutation, useCreateBillingRunMutation, useGetInvoicesQuery, useGetRateCardsQuery, useGetUnbilledQuery, useSaveRateCardMutation,
  type Invoice, type RateCardVersion,
} from '../billing-api';
import { InvoiceDrawer } from '../components/InvoiceDrawer';
import { toMinor, useBillingScope } from '../use-billing-scope';

type View = 'invoices' | 'rateCards' | 'unbilled';
/** The month before the one holding `day`: what a monthly run usually bills. */
const monthBefore = (day: string) => {
  const month = monthOfDay(addDays(monthOfDay(day).from, -1));
  return { periodFrom: month.from, periodTo: month.to };
};

/** /Billing: invoices (runs, drafts, finals, credit notes), rate cards and accessorials, and the live unbilled accrual; a client account sees its own invoices. */
export default function BillingPage() {
  const t = useT();
  const { isClient, canWrite, warehouseId } = useBillingScope();
  const [view, setView] = useState<View>('invoices');
  const [open, setOpen] = useState<'run' | 'card' | 'accessorial' | null>(null);
  // ?invoiceId=ID: a help desk ticket's "About" opens its invoice here.
  const [params] = useSearchParams();
  const [invoiceId, setInvoiceId] = useState<number | null>(() => Number(params.get('invoiceId')) || null);
  const switcher = !isClient && (
    <Segmented<View> value={view} onChange={setView} options={[
      { value: 'invoices', label: t('billing.tabs.invoices') }, { value: 'rateCards', label: t('billing.tabs.rateCards') }, { value: 'unbilled', label: t('billing.tabs.unbilled') },
    ]} />
  );
  const needWarehouse = (node: ReactNode) => (warehouseId ? node : <Tooltip title={t('billing.chooseWarehouse')}><span>{node}</span></Tooltip>);
  const actions = (
    <>
      {switcher}
      {canWrite && needWarehouse(<Button icon={<PlusOutlined />} disabled={!warehouseId} onClick={() => setOpen('accessorial')} data-testid="add-accessorial">{t('billing.addAccessorial')}</Button>)}
      {canWrite && needWarehouse(<Button icon={<PlusOutlined />} disabled={!warehouseId} onClick={() => setOpen('card')} data-testid="new-rate-card">{t('billing.newVersion')}</Button>)}
      {canWrite && needWarehouse(<Button type="primary" icon={<PlayCircleOutlined />} disabled={!warehouseId} onClick={() => setOpen('run')} data-testid="run-billing">{t('billing.runBilling')}</Button>)}
    </>
  );
  const dialogs = (
    <>
      <RunModal open={open === 'run'} onClose={() => setOpen(null)} onRun={(id) => { setOpen(null); setView('invoices'); setInvoiceId(id); }} />
      <RateCardModal open={open === 'card'} onClose={() => setOpen(null)} />
      <AccessorialModal open={open === 'accessorial'} onClose={() => setOpen(null)} />
      <InvoiceDrawer invoiceId={invoiceId} canWrite={canWrite} onClose={() => setInvoiceId(null)} />
    </>
  );
  if (view === 'rateCards') return <RateCardsView actions={actions}>{dialogs}</RateCardsView>;
  if (view === 'unbilled') return <UnbilledView actions={actions}>{dialogs}</UnbilledView>;
  return <InvoicesView actions={actions} isClient={isClient} onOpen={setInvoiceId}>{dialogs}</InvoicesView>;
}

function InvoicesView({ actions, isClient, onOpen, children }: { actions: ReactNode; isClient: boolean; onOpen: (id: number) => void; children: ReactNode }) {
  const t = useT();
  const filters: FilterLabel[] = [
    ...(isClient ? [] : [{ key: 'status', label: t('billing.col.status'), type: 'select' as const, options: INVOICE_STATUSES.map((s) => ({ value: s, label: s })) }]),
    { key: 'kind', label: t('billing.col.kind'), type: 'select', options: [{ value: 'invoice', label: t('billing.kind.invoice') }, { value: 'credit_note', label: t('billing.kind.credit_note') }] },
  ];
  const columns: ColumnsType<Invoice> = [
    { key: 'invoiceNumber', dataIndex: 'invoiceNumber', title: t('billing.col.number'), sorter: true, render: (v: string | null, r) => <Button type="link" size="small" onClick={() => onOpen(r.invoiceId)} data-testid={`open-invoice-${r.invoiceId}`}>{v ?? t('billing.draftNo', { id: r.invoiceId })}</Button> },
    { key: 'kind', dataIndex: 'kind', title: t('billing.col.kind'), render: (v: string) => (v === 'credit_note' ? <Tag color="orange">{t('billing.kind.credit_note')}</Tag> : t('billing.kind.invoice')) },
    { key: 'customerName', dataIndex: 'customerName', title: t('billing.col.client'), sorter: true },
    { key: 'warehouseName', dataIndex: 'warehouseName', title: t('billing.col.warehouse') },
    { key: 'periodFrom', dataIndex: 'periodFrom', title: t('billing.col.period'), sorter: true, render: (_: string, r) => `${r.periodFrom} – ${r.periodTo}` },
    { key: 'status', dataIndex: 'status', title: t('billing.col.status'), sorter: true, render: (v: string) => <StatusTag kind="INVOICE" status={v} /> },
    { key: 'run', dataIndex: 'runStatus', title: t('billing.col.run'), render: (v: string) => <Tag color={v === 'done' ? 'green' : v === 'failed' ? 'red' : 'processing'}>{v}</Tag> },
    { key: 'totalMinor', dataIndex: 'totalMinor', title: t('billing.col.total'), align: 'right', sorter: true, render: (v: number, r) => formatMinor(v, r.currency) },
  ];
  return (
    <DataTablePage<Invoice> key="invoices" title={t('routes.Billing')} subtitle={t(isClient ? 'billing.clientSubtitle' : 'billing.invoicesSubtitle')} rowKey="invoiceId"
      columns={columns} useList={useGetInvoicesQuery} filters={filters} searchPlaceholder={t('billing.searchInvoices')} scopeFilters={warehouseAndCustomerScope} actions={actions}>
      {children}
    </DataTablePage>
  );
}

function RateCardsView({ actions, children }: { actions: ReactNode; children: ReactNode }) {
  const t = useT();
  const columns: ColumnsType<RateCardVersion> = [
    { key: 'customerName', dataIndex: 'customerName', title: t('billing.col.client'), sorter: true },
    { key: 'warehouseName', dataIndex: 'warehouseName', title: t('billing.col.warehouse'), sorter: true },
    { key: 'versionNo', dataIndex: 'versionNo', title: t('billing.col.version'), sorter: true },
    { key: 'effectiveFrom', dataIndex: 'effectiveFrom', title: t('billing.col.effective'), sorter: true, render: (_: string, r) => `${r.effectiveFrom} → ${r.effectiveTo ?? t('billing.open')}` },
    { key: 'used', dataIndex: 'used', title: t('billing.col.used'), render: (v: boolean) => (v ? <Tag color="blue">{t('billing.used.yes')}</Tag> : <Tag>{t('billing.used.no')}</Tag>) },
    {
      key: 'rates', title: t('billing.col.rates'), render: (_: unknown, r) => (
        <Space size={[4, 4]} wrap>
          {r.rates.map((x) => <Tag key={`${x.chargeType}|${x.qualifier}`}>{CHARGE_TYPES[x.chargeType].label}{x.qualifier ? ` (${x.qualifier})` : ''}: {x.chargeType === 'carrier_markup' ? `+${x.markupBp / 100}%` : formatMinor(x.rateMinor, r.currency)}</Tag>)}
        </Space>
      ),
    },
  ];
  return (
    <DataTablePage<RateCardVersion> key="cards" title={t('routes.Billing')} subtitle={t('billing.rateCardsSubtitle')} rowKey="versionId" columns={columns}
      useList={useGetRateCardsQuery} searchPlaceholder={t('billing.searchRateCards')} scopeFilters={warehouseAndCustomerScope} actions={actions}>
      {children}
    </DataTablePage>
  );
}

function UnbilledView({ actions, children }: { actions: ReactNode; children: ReactNode }) {
  const t = useT();
  const { warehouseId, customerId } = useBillingScope();
  const { data, isFetching } = useGetUnbilledQuery({ warehouseId: warehouseId || undefined, customerId: customerId || undefined });
  const items = data?.items ?? [];
  return (
    <div style={{ padding: 16 }}>
      <Space wrap style={{ marginBottom: 12, justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>{t('billing.unbilled.title')}</Typography.Title>
        <Space wrap>{actions}</Space>
      </Space>
      <Row gutter={[16, 16]}>
        {items.map((u) => (
          <Col key={`${u.customerId}-${u.warehouseId}`} xs={24} md={12} xl={8}>
            <Card size="small" loading={isFetching} title={`${u.customerName} · ${u.warehouseName}`} data-testid="unbilled-card">
              <Statistic title={t('billing.fromTo', { from: u.periodFrom, to: u.periodTo })} value={formatMinor(u.totalMinor, u.currency)} />
              <Table size="small" pagination={false} rowKey="group" dataSource={u.byGroup} columns={[
                { key: 'g', dataIndex: 'group', title: t('billing.col.charges') },
                { key: 'a', dataIndex: 'amountMinor', title: t('billing.col.amount'), align: 'right', render: (v: number) => formatMinor(v) },
              ]} />
            </Card>
          </Col>
        ))}
        {!isFetching && items.length === 0 && <Col span={24}><Typography.Text type="secondary">{t('billing.unbilled.none')}</Typography.Text></Col>}
      </Row>
      {children}
    </div>
  );
}

function CustomerField() {
  const t = useT();
  const { customers } = useBillingScope();
  return (
    <Form.Item name="customerId" label={t('billing.col.client')} rules={[{ required: true, message: t('billing.form.clientRequired') }]}>
      <Select showSearch optionFilterProp="label" options={customers} data-testid="billing-customer" />
    </Form.Item>
  );
}

function RunModal({ open, onClose, onRun }: { open: boolean; onClose: () => void; onRun: (invoiceId: number) => void }) {
  const t = useT();
  const { warehouseId, customerId } = useBillingScope();
  const [form] = Form.useForm();
  const [run, { isLoading }] = useCreateBillingRunMutation();
  const today = useWarehouseDay();
  return (
    <Modal open={open} title={t('billing.run.title')} onCancel={onClose} onOk={() => form.submit()} okText={t('billing.run.ok')} confirmLoading={isLoading} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ customerId: customerId || undefined, periodKind: 'monthly', ...monthBefore(today) }}
        onFinish={async (v: { customerId: number; periodKind: 'monthly' | 'weekly' | 'custom'; periodFrom: string; periodTo: string }) => {
          const answer = await runMutation(run({ ...v, warehouseId }));
          if (answer) onRun(answer.data.invoice.invoiceId);
        }}>
        <CustomerField />
        <Form.Item name="periodKind" label={t('billing.col.period')}><Select options={(['monthly', 'weekly', 'custom'] as const).map((k) => ({ value: k, label: t(`billing.period.${k}`) }))} /></Form.Item>
        <Space wrap>
          <Form.Item name="periodFrom" label={t('billing.form.from')} rules={[{ required: true }]}><Input type="date" data-testid="period-from" /></Form.Item>
          <Form.Item name="periodTo" label={t('billing.form.to')} rules={[{ required: true }]}><Input type="date" data-testid="period-to" /></Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

type RateRow = { chargeType: ChargeType; qualifier?: string; rate?: number; markup?: number };
function RateCardModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const { warehouseId, customerId } = useBillingScope();
  const [form] = Form.useForm();
  const [save, { isLoading }] = useSaveRateCardMutation();
  const today = useWarehouseDay();
  return (
    <Modal open={open} title={t('billing.card.title')} width={760} onCancel={onClose} onOk={() => form.submit()} okText={t('billing.form.save')} confirmLoading={isLoading} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('billing.card.help')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('billing.card.locationRule')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ customerId: customerId || undefined, effectiveFrom: today, rates: [{ chargeType: 'order' }] }}
        onFinish={async (v: { customerId: number; effectiveFrom: string; effectiveTo?: string; notes?: string; rates: RateRow[] }) => {
          const answer = await runMutation(save({
            customerId: v.customerId, warehouseId, effectiveFrom: v.effectiveFrom, effectiveTo: v.effectiveTo || null, notes: v.notes ?? '',
            rates: v.rates.map((r) => ({ chargeType: r.chargeType, qualifier: r.qualifier ?? '', rateMinor: toMinor(r.rate), markupBp: Math.round((r.markup ?? 0) * 100) })),
          }));
          if (answer) onClose();
        }}>
        <CustomerField />
        <Space wrap>
          <Form.Item name="effectiveFrom" label={t('billing.card.effectiveFrom')} rules={[{ required: true }]}><Input type="date" data-testid="effective-from" /></Form.Item>
          <Form.Item name="effectiveTo" label={t('billing.card.until')}><Input type="date" /></Form.Item>
        </Space>
        <Form.List name="rates">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} wrap align="start">
                  <Form.Item name={[f.name, 'chargeType']} rules={[{ required: true }]} style={{ width: 260 }}>
                    <Select showSearch optionFilterProp="label" options={CHARGE_TYPE_KEYS.map((k) => ({ value: k, label: `${CHARGE_TYPES[k].group}: ${CHARGE_TYPES[k].label}` }))} data-testid="rate-type" />
                  </Form.Item>
                  <Form.Item name={[f.name, 'qualifier']}><Input placeholder={t('billing.card.qualifier')} style={{ width: 150 }} /></Form.Item>
                  <Form.Item name={[f.name, 'rate']} rules={[{ type: 'number', min: 0, message: t('billing.card.negative') }]}><InputNumber placeholder={t('billing.card.rate')} precision={2} style={{ width: 110 }} data-testid="rate-amount" /></Form.Item>
                  <Form.Item name={[f.name, 'markup']}><InputNumber placeholder={t('billing.card.markup')} min={0} precision={2} style={{ width: 110 }} /></Form.Item>
                  <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('billing.card.remove')} onClick={() => remove(f.name)} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ chargeType: 'order' })} data-testid="add-rate">{t('billing.card.add')}</Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function AccessorialModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const { warehouseId, customerId } = useBillingScope();
  const [form] = Form.useForm();
  const [add, { isLoading }] = useAddAccessorialMutation();
  const today = useWarehouseDay();
  return (
    <Modal open={open} title={t('billing.acc.title')} onCancel={onClose} onOk={() => form.submit()} okText={t('billing.form.add')} confirmLoading={isLoading} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ customerId: customerId || undefined, chargeType: 'accessorial', quantity: 1, day: today }}
        onFinish={async (v: { customerId: number; chargeType: 'accessorial' | 'labour_hour'; qualifier?: string; description: string; quantity: number; day: string; rate?: number }) => {
          const answer = await runMutation(add({ ...v, warehouseId, qualifier: v.qualifier ?? '', rateMinor: v.rate === undefined || v.rate === null ? undefined : toMinor(v.rate) }));
          if (answer) onClose();
        }}>
        <CustomerField />
        <Form.Item name="chargeType" label={t('billing.col.kind')}><Select options={[{ value: 'accessorial', label: t('billing.acc.accessorial') }, { value: 'labour_hour', label: t('billing.acc.labour') }]} /></Form.Item>
        <Form.Item name="qualifier" label={t('billing.acc.name')}><Input maxLength={64} /></Form.Item>
        <Form.Item name="description" label={t('billing.form.description')} rules={[{ required: true, message: t('billing.form.descriptionRequired') }]}><Input maxLength={200} /></Form.Item>
        <Space wrap>
          <Form.Item name="day" label={t('billing.form.day')} rules={[{ required: true }]}><Input type="date" /></Form.Item>
          <Form.Item name="quantity" label={t('billing.acc.quantity')} rules={[{ required: true }]}><InputNumber min={1} precision={0} /></Form.Item>
          <Form.Item name="rate" label={t('billing.acc.ownRate')}><InputNumber min={0} precision={2} /></Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
