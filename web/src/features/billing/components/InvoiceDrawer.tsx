import { useState } from 'react';
import { LinkedTickets } from '../../../components/linked-tickets/LinkedTickets';
import { Link } from 'react-router';
import { Alert, Button, Descriptions, Drawer, Form, Input, InputNumber, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, FileExcelOutlined, FilePdfOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { formatMinor, type InvoiceLine } from '@bolx/contracts';
import { StatusTag } from '../../../components/StatusTag';
import { useDownload } from '../../../components/download/use-download';
import { runMutation } from '../../../lib/api/mutation-toast';
import { mayAct } from '../../../lib/status-actions';
import { useT } from '../../../lib/i18n/use-t';
import {
  useAddManualLineMutation, useCreateCreditNoteMutation, useDiscardInvoiceMutation, useFinalizeInvoiceMutation, useGetInvoiceQuery, useGetLineSourcesQuery,
  useRemoveManualLineMutation, useRerunInvoiceMutation,
} from '../billing-api';
import { toMinor } from '../use-billing-scope';

/** A line's quantity as read: m³-days for volume, hours for labour minutes. */
export function quantityText(l: Pick<InvoiceLine, 'quantity' | 'unit'>) {
  if (l.unit === 'cm³-days') return `${(l.quantity / 1_000_000).toFixed(3)} m³-days`;
  if (l.unit === 'minutes') return `${(l.quantity / 60).toFixed(2)} hours`;
  return `${l.quantity.toLocaleString('en-US')} ${l.unit}`;
}

/** The charges behind one line, each with a link to what caused it. */
export function LineSources({ invoiceId, lineId }: { invoiceId: number; lineId: number }) {
  const { data, isFetching } = useGetLineSourcesQuery({ invoiceId, lineId });
  const linkOf = (l: { kind: string; id: string } | null) => {
    if (!l) return '—';
    if (l.kind === 'order') return <Link to={`/OrderDashboard?orderId=${l.id}`}>Order {l.id}</Link>;
    if (l.kind === 'receiving') return <Link to={`/ROReportDetails?roNumber=${encodeURIComponent(l.id)}`}>{l.id}</Link>;
    // No screen lists a document's ledger rows (a work order's kits): named, not linked.
    if (l.kind === 'ledger') return `Ledger ${l.id}`;
    if (l.kind === 'snapshot') return `Snapshot ${l.id}`;
    if (l.kind === 'event') return `Event ${l.id}`;
    return 'Entered by hand';
  };
  return (
    <Table size="small" rowKey="chargeId" loading={isFetching} dataSource={data?.items ?? []} pagination={{ pageSize: 10, hideOnSinglePage: true }} scroll={{ x: true }}
      data-testid="line-sources"
      columns={[
        { key: 'day', dataIndex: 'day', title: 'Day' },
        { key: 'source', title: 'Source', render: (_: unknown, c) => <>{c.sourceType} {c.sourceId}{c.reversesChargeId ? <Tag color="orange" style={{ marginLeft: 4 }}>credit</Tag> : null}</> },
        { key: 'doc', dataIndex: 'sourceDoc', title: 'Document', render: (v: string | null) => v ?? '—' },
        { key: 'link', title: 'Open', render: (_: unknown, c) => linkOf(c.link) },
        { key: 'quantity', dataIndex: 'quantity', title: 'Qty', align: 'right' },
        { key: 'amount', dataIndex: 'amountMinor', title: 'Amount', align: 'right', render: (v: number) => formatMinor(v) },
      ]} />
  );
}

/** One invoice: its lines (each traced to its sources), and what may be done with it (re-run, adjust, finalise, credit). */
export function InvoiceDrawer({ invoiceId, canWrite, onClose }: { invoiceId: number | null; canWrite: boolean; onClose: () => void }) {
  const t = useT();
  const { data: inv, isFetching } = useGetInvoiceQuery({ invoiceId: invoiceId ?? 0 }, { skip: !invoiceId });
  const [download, downloading] = useDownload();
  const [rerun] = useRerunInvoiceMutation();
  const [finalize] = useFinalizeInvoiceMutation();
  const [discard] = useDiscardInvoiceMutation();
  const [addLine] = useAddManualLineMutation();
  const [removeLine] = useRemoveManualLineMutation();
  const [credit] = useCreateCreditNoteMutation();
  const [manual, setManual] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [form] = Form.useForm();
  const [creditForm] = Form.useForm();
  const draft = inv?.status === 'Draft';
  const running = inv?.runStatus === 'queued' || inv?.runStatus === 'running';
  const file = (kind: 'InvoicePdf' | 'InvoiceExcel', ext: string) => () =>
    download({ url: `Warehouse/Billing/${kind}`, method: 'GET', params: { invoiceId } }, `${inv?.invoiceNumber ?? `draft-${invoiceId}`}.${ext}`);
  return (
    <Drawer open={!!invoiceId} onClose={onClose} width="min(960px, 100vw)" destroyOnHidden
      title={inv ? <Space wrap>{t(`billing.kind.${inv.kind}`)} {inv.invoiceNumber ?? t('billing.drawer.draft')} <StatusTag kind="INVOICE" status={inv.status} /></Space> : t('billing.kind.invoice')}
      extra={(
        <Space wrap>
          <Button icon={<FilePdfOutlined />} loading={downloading} onClick={file('InvoicePdf', 'pdf')} data-testid="invoice-pdf">PDF</Button>
          <Button icon={<FileExcelOutlined />} loading={downloading} onClick={file('InvoiceExcel', 'xlsx')}>Excel</Button>
        </Space>
      )}>
      {inv && (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {running && <Alert type="info" showIcon message={t('billing.drawer.running')} />}
          {inv.runStatus === 'failed' && <Alert type="error" showIcon message={t('billing.drawer.failed', { message: inv.runMessage ?? '' })} />}
          {inv.unrated.length > 0 && <Alert type="warning" showIcon message={t('billing.drawer.unrated', { list: inv.unrated.map((u) => `${u.count} ${u.source}`).join(', ') })} />}
          <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }} items={[
            { key: 'c', label: t('billing.col.client'), children: inv.customerName },
            { key: 'w', label: t('billing.col.warehouse'), children: inv.warehouseName },
            { key: 'p', label: t('billing.col.period'), children: `${t('billing.fromTo', { from: inv.periodFrom, to: inv.periodTo })} (${t(`billing.period.${inv.periodKind}`)})` },
            { key: 'cur', label: t('billing.drawer.currency'), children: inv.currency },
            ...(inv.creditsInvoiceNumber ? [{ key: 'cr', label: t('billing.drawer.credits'), children: `${inv.creditsInvoiceNumber}: ${inv.reason ?? ''}` }] : []),
          ]} />
          <LinkedTickets kind="invoice" id={inv.invoiceId} number={inv.invoiceNumber} />
          <Table<InvoiceLine> size="small" rowKey="lineId" loading={isFetching} dataSource={inv.lines} pagination={false} scroll={{ x: true }} data-testid="invoice-lines"
            rowSelection={crediting ? { selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) } : undefined}
            expandable={{ expandedRowRender: (l) => (l.manual ? <Typography.Text type="secondary">{t('billing.drawer.manualReason', { reason: l.reason ?? '' })}</Typography.Text> : <LineSources invoiceId={inv.invoiceId} lineId={l.lineId} />) }}
            columns={[
              { key: 'group', dataIndex: 'group', title: t('billing.drawer.type'), render: (g: string) => <Tag>{g}</Tag> },
              { key: 'description', dataIndex: 'description', title: t('billing.form.description'), render: (d: string, l) => <>{d}{l.manual && <Tag color="purple" style={{ marginLeft: 4 }}>{t('billing.drawer.manual')}</Tag>}</> },
              { key: 'quantity', title: t('billing.drawer.quantity'), align: 'right', render: (_: unknown, l) => quantityText(l) },
              { key: 'rate', title: t('billing.card.rate'), align: 'right', render: (_: unknown, l) => (l.rateMinor === null ? (l.markupBp ? t('billing.drawer.costPlus', { markup: l.markupBp / 100 }) : '—') : formatMinor(l.rateMinor)) },
              { key: 'amount', dataIndex: 'amountMinor', title: t('billing.col.amount'), align: 'right', render: (v: number) => formatMinor(v) },
              ...(canWrite && draft ? [{
                key: 'x', title: '', render: (_: unknown, l: InvoiceLine) => l.manual && (
                  <Button size="small" type="link" danger icon={<DeleteOutlined />} aria-label={t('billing.drawer.removeLine')}
                    onClick={() => runMutation(removeLine({ invoiceId: inv.invoiceId, lineId: l.lineId }))} />
                ),
              }] : []),
            ]}
            summary={() => (
              <>
                <Table.Summary.Row><Table.Summary.Cell index={0} colSpan={4} align="right">{t('billing.drawer.subtotal')}</Table.Summary.Cell><Table.Summary.Cell index={1} align="right">{formatMinor(inv.subtotalMinor)}</Table.Summary.Cell></Table.Summary.Row>
                {inv.taxRateBp > 0 && <Table.Summary.Row><Table.Summary.Cell index={0} colSpan={4} align="right">{t('billing.drawer.tax', { rate: inv.taxRateBp / 100 })}</Table.Summary.Cell><Table.Summary.Cell index={1} align="right">{formatMinor(inv.taxMinor)}</Table.Summary.Cell></Table.Summary.Row>}
                <Table.Summary.Row><Table.Summary.Cell index={0} colSpan={4} align="right"><b>{t('billing.col.total')}</b></Table.Summary.Cell><Table.Summary.Cell index={1} align="right"><b data-testid="invoice-total">{formatMinor(inv.totalMinor, inv.currency)}</b></Table.Summary.Cell></Table.Summary.Row>
              </>
            )} />
          {canWrite && (
            <Space wrap>
              {draft && <Button icon={<PlusOutlined />} onClick={() => setManual(true)} disabled={running} data-testid="add-manual-line">{t('billing.drawer.manualLine')}</Button>}
              {draft && <Button icon={<ReloadOutlined />} disabled={running} onClick={() => runMutation(rerun({ invoiceId: inv.invoiceId }))}>{t('billing.drawer.rerun')}</Button>}
              {mayAct('INVOICE', inv.status, 'finalize') && (
                <Popconfirm title={t('billing.drawer.finalizeConfirm')} onConfirm={() => runMutation(finalize({ invoiceId: inv.invoiceId }))}>
                  <Button type="primary" disabled={running || inv.runStatus !== 'done'} data-testid="finalize-invoice">{t('billing.drawer.finalize')}</Button>
                </Popconfirm>
              )}
              {mayAct('INVOICE', inv.status, 'discard') && (
                <Popconfirm title={t('billing.drawer.discardConfirm')} onConfirm={() => runMutation(discard({ invoiceId: inv.invoiceId }))}>
                  <Button danger disabled={running}>{t('billing.drawer.discard')}</Button>
                </Popconfirm>
              )}
              {inv.status === 'Final' && inv.kind === 'invoice' && !crediting && <Button onClick={() => { setCrediting(true); setSelected([]); }}>{t('billing.drawer.creditNote')}</Button>}
              {crediting && <Button type="primary" onClick={() => creditForm.submit()}>{selected.length ? t('billing.drawer.creditLines', { count: selected.length }) : t('billing.drawer.creditAll')}</Button>}
              {crediting && <Button onClick={() => setCrediting(false)}>{t('billing.drawer.cancel')}</Button>}
              {inv.status === 'Final' && <Link to={`/InvoiceAudit?invoiceId=${inv.invoiceId}`}>{t('billing.drawer.audit')}</Link>}
            </Space>
          )}
          {crediting && (
            <Form form={creditForm} layout="vertical" onFinish={async (v: { reason: string }) => {
              await runMutation(credit({ invoiceId: inv.invoiceId, reason: v.reason, lineIds: selected.length ? selected : undefined }));
              setCrediting(false);
            }}>
              <Form.Item name="reason" label={t('billing.drawer.creditReason')} rules={[{ required: true, message: t('billing.form.reasonRequired') }]}><Input maxLength={200} /></Form.Item>
            </Form>
          )}
        </Space>
      )}
      <Modal open={manual} title={t('billing.drawer.manualTitle')} onCancel={() => setManual(false)} onOk={() => form.submit()} okText={t('billing.form.add')} destroyOnHidden>
        <Form form={form} layout="vertical" initialValues={{ quantity: 1 }} onFinish={async (v: { description: string; quantity: number; rate: number; reason: string }) => {
          await runMutation(addLine({ invoiceId: invoiceId!, chargeType: 'accessorial', description: v.description, quantity: v.quantity, rateMinor: toMinor(v.rate), reason: v.reason }));
          form.resetFields();
          setManual(false);
        }}>
          <Form.Item name="description" label={t('billing.form.description')} rules={[{ required: true, message: t('billing.form.descriptionRequired') }]}><Input maxLength={200} /></Form.Item>
          <Space wrap>
            <Form.Item name="quantity" label={t('billing.drawer.manualQuantity')} rules={[{ required: true }]}><InputNumber precision={0} /></Form.Item>
            <Form.Item name="rate" label={t('billing.card.rate')} rules={[{ required: true, message: t('billing.drawer.rateRequired') }]}><InputNumber min={0} precision={2} /></Form.Item>
          </Space>
          <Form.Item name="reason" label={t('billing.drawer.reason')} rules={[{ required: true, message: t('billing.form.reasonRequired') }]}><Input maxLength={200} /></Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
