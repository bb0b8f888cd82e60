import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Card, Col, Empty, InputNumber, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { CHARGE_TYPES, formatMinor, type ChargeType, type InvoiceLine } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';
import { useGetInvoiceAuditQuery, useGetInvoicesQuery } from '../billing-api';
import { LineSources, quantityText } from '../components/InvoiceDrawer';

const ANOMALY_COLOURS: Record<string, string> = { 'no-rate': 'red', 'zero-rate': 'orange', swing: 'gold', 'stored-unbilled': 'volcano' };

/** /InvoiceAudit: an invoice's lines traced to their sources, its difference against the previous invoice, and anomalies. */
export default function InvoiceAuditPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const invoiceId = Number(params.get('invoiceId')) || 0;
  const [swing, setSwing] = useState(25);
  const { data: invoices } = useGetInvoicesQuery({ filters: { kind: 'invoice' }, searchQuery: '', pageNumber: 1, pageSize: 100 });
  const { data, isFetching, isError } = useGetInvoiceAuditQuery({ invoiceId, swingPercent: swing }, { skip: !invoiceId });
  return (
    <div style={{ padding: 16 }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%', marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>{t('billing.audit.title')}</Typography.Title>
        <Space wrap>
          <Select style={{ minWidth: 280 }} showSearch optionFilterProp="label" placeholder={t('billing.audit.chooseInvoice')} value={invoiceId || undefined} data-testid="audit-invoice"
            onChange={(id: number) => setParams({ invoiceId: String(id) })}
            options={(invoices?.items ?? []).map((i) => ({ value: i.invoiceId, label: `${i.invoiceNumber ?? t('billing.draftNo', { id: i.invoiceId })} · ${i.customerName} · ${i.periodFrom}` }))} />
          <span>{t('billing.audit.flagOver')} <InputNumber min={1} max={1000} value={swing} onChange={(v) => setSwing(v ?? 25)} style={{ width: 80 }} aria-label={t('billing.audit.flagOver')} /> %</span>
        </Space>
      </Space>
      {!invoiceId && <Empty description={t('billing.audit.chooseToTrace')} />}
      {isError && <Alert type="error" message={t('billing.audit.cannot')} />}
      {data && (
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card size="small" loading={isFetching} title={`${data.invoice.invoiceNumber ?? t('billing.audit.draft')} · ${data.invoice.customerName} · ${data.invoice.periodFrom} – ${data.invoice.periodTo} · ${formatMinor(data.invoice.totalMinor, data.invoice.currency)}`}>
              {data.anomalies.length === 0 ? <Tag color="green">{t('billing.audit.noAnomalies')}</Tag> : (
                <Space direction="vertical" data-testid="anomalies">{data.anomalies.map((a, i) => <span key={i}><Tag color={ANOMALY_COLOURS[a.kind]}>{t(`billing.audit.anomaly.${a.kind}`)}</Tag>{a.message}</span>)}</Space>
              )}
            </Card>
          </Col>
          <Col xs={24} xl={14}>
            <Card size="small" title={t('billing.audit.lines')}>
              <Table<InvoiceLine> size="small" rowKey="lineId" pagination={false} dataSource={data.invoice.lines} scroll={{ x: true }} data-testid="audit-lines"
                expandable={{ expandedRowRender: (l) => (l.manual ? t('billing.audit.manual', { reason: l.reason ?? '' }) : <LineSources invoiceId={data.invoice.invoiceId} lineId={l.lineId} />) }}
                columns={[
                  { key: 'd', dataIndex: 'description', title: t('billing.audit.line') },
                  { key: 'q', title: t('billing.drawer.quantity'), align: 'right', render: (_: unknown, l) => quantityText(l) },
                  { key: 's', dataIndex: 'sourceCount', title: t('billing.audit.sources'), align: 'right' },
                  { key: 'a', dataIndex: 'amountMinor', title: t('billing.col.amount'), align: 'right', render: (v: number) => formatMinor(v) },
                ]} />
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" title={data.previous ? t('billing.audit.against', { number: data.previous.invoiceNumber ?? '', from: data.previous.periodFrom, to: data.previous.periodTo }) : t('billing.audit.noPrevious')}>
              <Table size="small" rowKey="chargeType" pagination={false} dataSource={data.differences} scroll={{ x: true }} columns={[
                { key: 't', dataIndex: 'chargeType', title: t('billing.summary.chargeType'), render: (t: ChargeType) => CHARGE_TYPES[t].label },
                { key: 'p', dataIndex: 'previousMinor', title: t('billing.summary.previous'), align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'c', dataIndex: 'currentMinor', title: t('billing.audit.this'), align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'x', dataIndex: 'changePercent', title: t('billing.summary.change'), align: 'right', render: (v: number | null, r) => (v === null ? formatMinor(r.changeMinor) : `${v > 0 ? '+' : ''}${v}%`) },
              ]} />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
