import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Card, Col, Empty, InputNumber, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { CHARGE_TYPES, formatMinor, type ChargeType, type InvoiceLine } from '@bolx/contracts';
import { useGetInvoiceAuditQuery, useGetInvoicesQuery } from '../billing-api';
import { LineSources, quantityText } from '../components/InvoiceDrawer';

const ANOMALY_COLOURS: Record<string, string> = { 'no-rate': 'red', 'zero-rate': 'orange', swing: 'gold', 'stored-unbilled': 'volcano' };

/** /InvoiceAudit: an invoice's lines traced to their sources, its difference against the previous invoice, and anomalies. */
export default function InvoiceAuditPage() {
  const [params, setParams] = useSearchParams();
  const invoiceId = Number(params.get('invoiceId')) || 0;
  const [swing, setSwing] = useState(25);
  const { data: invoices } = useGetInvoicesQuery({ filters: { kind: 'invoice' }, searchQuery: '', pageNumber: 1, pageSize: 100 });
  const { data, isFetching, isError } = useGetInvoiceAuditQuery({ invoiceId, swingPercent: swing }, { skip: !invoiceId });
  return (
    <div style={{ padding: 16 }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%', marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>Invoice Audit</Typography.Title>
        <Space wrap>
          <Select style={{ minWidth: 280 }} showSearch optionFilterProp="label" placeholder="Choose an invoice" value={invoiceId || undefined} data-testid="audit-invoice"
            onChange={(id: number) => setParams({ invoiceId: String(id) })}
            options={(invoices?.items ?? []).map((i) => ({ value: i.invoiceId, label: `${i.invoiceNumber ?? `Draft #${i.invoiceId}`} · ${i.customerName} · ${i.periodFrom}` }))} />
          <span>Flag changes over <InputNumber min={1} max={1000} value={swing} onChange={(v) => setSwing(v ?? 25)} style={{ width: 80 }} /> %</span>
        </Space>
      </Space>
      {!invoiceId && <Empty description="Choose an invoice to trace" />}
      {isError && <Alert type="error" message="This invoice cannot be audited (not found or outside your access)" />}
      {data && (
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card size="small" loading={isFetching} title={`${data.invoice.invoiceNumber ?? 'Draft'} · ${data.invoice.customerName} · ${data.invoice.periodFrom} – ${data.invoice.periodTo} · ${formatMinor(data.invoice.totalMinor, data.invoice.currency)}`}>
              {data.anomalies.length === 0 ? <Tag color="green">No anomalies</Tag> : (
                <Space direction="vertical" data-testid="anomalies">{data.anomalies.map((a, i) => <span key={i}><Tag color={ANOMALY_COLOURS[a.kind]}>{a.kind}</Tag>{a.message}</span>)}</Space>
              )}
            </Card>
          </Col>
          <Col xs={24} xl={14}>
            <Card size="small" title="Lines (expand to trace each to its sources)">
              <Table<InvoiceLine> size="small" rowKey="lineId" pagination={false} dataSource={data.invoice.lines} scroll={{ x: true }} data-testid="audit-lines"
                expandable={{ expandedRowRender: (l) => (l.manual ? `Manual: ${l.reason}` : <LineSources invoiceId={data.invoice.invoiceId} lineId={l.lineId} />) }}
                columns={[
                  { key: 'd', dataIndex: 'description', title: 'Line' },
                  { key: 'q', title: 'Quantity', align: 'right', render: (_: unknown, l) => quantityText(l) },
                  { key: 's', dataIndex: 'sourceCount', title: 'Sources', align: 'right' },
                  { key: 'a', dataIndex: 'amountMinor', title: 'Amount', align: 'right', render: (v: number) => formatMinor(v) },
                ]} />
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" title={data.previous ? `Against ${data.previous.invoiceNumber} (${data.previous.periodFrom} – ${data.previous.periodTo})` : 'No previous invoice'}>
              <Table size="small" rowKey="chargeType" pagination={false} dataSource={data.differences} scroll={{ x: true }} columns={[
                { key: 't', dataIndex: 'chargeType', title: 'Charge type', render: (t: ChargeType) => CHARGE_TYPES[t].label },
                { key: 'p', dataIndex: 'previousMinor', title: 'Previous', align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'c', dataIndex: 'currentMinor', title: 'This', align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'x', dataIndex: 'changePercent', title: 'Change', align: 'right', render: (v: number | null, r) => (v === null ? formatMinor(r.changeMinor) : `${v > 0 ? '+' : ''}${v}%`) },
              ]} />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
