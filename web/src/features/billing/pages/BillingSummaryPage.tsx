import { useMemo, useState } from 'react';
import { Card, Col, Empty, Input, Row, Select, Space, Statistic, Table, Typography } from 'antd';
import { CHARGE_TYPES, formatMinor, monthOfDay, type ChargeType } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';
import { useWarehouseDay } from '../../../lib/use-warehouse-day';
import { useGetBillingSummaryQuery } from '../billing-api';
import { BillingChart } from '../components/BillingChart';
import { useBillingScope } from '../use-billing-scope';

/** This month so far and to its end: what its invoices bill. */
const monthRange = (day: string) => {
  const month = monthOfDay(day);
  return { periodFrom: month.from, periodTo: month.to };
};
const change = (now: number, before: number) => (before === 0 ? '—' : `${now >= before ? '+' : ''}${(((now - before) * 100) / Math.abs(before)).toFixed(1)}%`);

/** /BillingSummary: a client's billing by charge type for a period, against the previous period and last year, and over twelve months. */
export default function BillingSummaryPage() {
  const t = useT();
  const { customers, customerId: headerCustomer, warehouseId } = useBillingScope();
  const [customerId, setCustomerId] = useState<number | undefined>(headerCustomer || customers[0]?.value);
  const today = useWarehouseDay();
  const [range, setRange] = useState(() => monthRange(today));
  const chosen = customerId ?? customers[0]?.value;
  const { data, isFetching } = useGetBillingSummaryQuery({ customerId: chosen ?? 0, warehouseId: warehouseId || undefined, ...range }, { skip: !chosen });
  const types = useMemo(() => [...new Set((data?.months ?? []).flatMap((m) => m.byType.map((b) => b.chargeType)))] as ChargeType[], [data]);
  const x = useMemo(() => (data?.months ?? []).map((m) => m.month), [data]);
  const bars = useMemo(() => types.map((t) => ({ name: CHARGE_TYPES[t].label, type: 'bar' as const, stack: 'billed', data: (data?.months ?? []).map((m) => (m.byType.find((b) => b.chargeType === t)?.amountMinor ?? 0) / 100) })), [types, data]);
  const line = useMemo(() => [{ name: t('billing.summary.billed'), type: 'line' as const, data: (data?.months ?? []).map((m) => m.amountMinor / 100) }], [data, t]);
  const rows = useMemo(() => {
    if (!data) return [];
    const all = [...new Set([...data.current.byType, ...data.previous.byType, ...data.lastYear.byType].map((b) => b.chargeType))];
    const of = (list: typeof data.current.byType, t: ChargeType) => list.find((b) => b.chargeType === t)?.amountMinor ?? 0;
    return all.map((t) => ({ chargeType: t, current: of(data.current.byType, t), previous: of(data.previous.byType, t), lastYear: of(data.lastYear.byType, t) }));
  }, [data]);
  const currency = data?.currency ?? '';
  return (
    <div style={{ padding: 16 }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%', marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>{t('billing.summary.title')}</Typography.Title>
        <Space wrap>
          <Select style={{ minWidth: 200 }} value={chosen} onChange={setCustomerId} placeholder={t('billing.col.client')} options={customers} data-testid="summary-customer" />
          <Input type="date" value={range.periodFrom} onChange={(e) => setRange((r) => ({ ...r, periodFrom: e.target.value }))} aria-label={t('billing.form.from')} />
          <Input type="date" value={range.periodTo} onChange={(e) => setRange((r) => ({ ...r, periodTo: e.target.value }))} aria-label={t('billing.form.to')} />
        </Space>
      </Space>
      {!chosen ? <Empty description={t('billing.summary.chooseClient')} /> : (
        <Row gutter={[16, 16]}>
          <Col xs={24} md={8}><Card size="small" loading={isFetching}><Statistic title={t('billing.summary.thisPeriod', { from: range.periodFrom, to: range.periodTo })} value={formatMinor(data?.current.totalMinor ?? 0, currency)} data-testid="summary-current" /></Card></Col>
          <Col xs={24} md={8}><Card size="small" loading={isFetching}><Statistic title={t('billing.summary.previousPeriod', { change: change(data?.current.totalMinor ?? 0, data?.previous.totalMinor ?? 0) })} value={formatMinor(data?.previous.totalMinor ?? 0, currency)} /></Card></Col>
          <Col xs={24} md={8}><Card size="small" loading={isFetching}><Statistic title={t('billing.summary.lastYearPeriod', { change: change(data?.current.totalMinor ?? 0, data?.lastYear.totalMinor ?? 0) })} value={formatMinor(data?.lastYear.totalMinor ?? 0, currency)} /></Card></Col>
          <Col xs={24} xl={12}><Card size="small" title={t('billing.summary.byTypeChart')}><BillingChart x={x} series={bars} yName={currency || t('billing.summary.value')} label={t('billing.summary.byTypeLabel')} /></Card></Col>
          <Col xs={24} xl={12}><Card size="small" title={t('billing.summary.perMonth')}><BillingChart x={x} series={line} yName={currency || t('billing.summary.value')} label={t('billing.summary.perMonth')} /></Card></Col>
          <Col span={24}>
            <Card size="small" title={t('billing.summary.byType')}>
              <Table size="small" rowKey="chargeType" pagination={false} dataSource={rows} scroll={{ x: true }} columns={[
                { key: 't', dataIndex: 'chargeType', title: t('billing.summary.chargeType'), render: (t: ChargeType) => CHARGE_TYPES[t].label },
                { key: 'c', dataIndex: 'current', title: t('billing.summary.thisPeriodCol'), align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'p', dataIndex: 'previous', title: t('billing.summary.previous'), align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'pc', title: t('billing.summary.change'), align: 'right', render: (_: unknown, r) => change(r.current, r.previous) },
                { key: 'y', dataIndex: 'lastYear', title: t('billing.summary.lastYear'), align: 'right', render: (v: number) => formatMinor(v) },
                { key: 'yc', title: t('billing.summary.change'), align: 'right', render: (_: unknown, r) => change(r.current, r.lastYear) },
              ]} />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
