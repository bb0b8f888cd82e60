import { useEffect, useRef, useState } from 'react';
import { Button, Card, Col, DatePicker, Empty, Row, Space, Statistic, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ReturnsReport } from '@bolx/contracts';
import { downloadFile } from '../../../lib/api/download';
import { useAppStore } from '../../../lib/hooks';
import { useT } from '../../../lib/i18n/use-t';
import { chartOption, type ChartInput } from '../../../lib/chart-options';
import { returnsChartData } from '../report-chart';
import { useGetReturnsReportQuery } from '../returns-api';
import { useReturnsScope } from '../use-returns-scope';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** /Return: processed returns per client and period — units by reason and disposition, return rate per SKU, a chart, Excel. */
export default function ReturnReportPage() {
  const t = useT();
  const store = useAppStore();
  const { warehouseId, customerId } = useReturnsScope('Return');
  const [period, setPeriod] = useState<[Dayjs, Dayjs]>([dayjs().startOf('month'), dayjs()]);
  const body = { ...(warehouseId ? { warehouseId } : {}), ...(customerId ? { customerId } : {}), from: period[0].format('YYYY-MM-DD'), to: period[1].format('YYYY-MM-DD') };
  const { data, isFetching } = useGetReturnsReportQuery(body);
  const [downloading, setDownloading] = useState(false);
  const excel = async () => {
    setDownloading(true);
    try { await downloadFile(store, { url: 'Warehouse/Returns/DownloadReturnsReport', method: 'POST', body }, 'returns-report.xlsx'); } finally { setDownloading(false); }
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="return-report">
      <Card title={t('routes.Return')} extra={<Button icon={<DownloadOutlined />} loading={downloading} onClick={excel} data-testid="return-excel">{t('returns.report.excel')}</Button>}>
        <Space wrap>
          <span>{t('returns.report.period')}</span>
          <DatePicker.RangePicker value={period} allowClear={false} onChange={(v) => v?.[0] && v[1] && setPeriod([v[0], v[1]])} />
        </Space>
        <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
          <Col xs={12} md={6}><Statistic title={t('returns.report.units')} value={data?.totals.units ?? 0} loading={isFetching && !data} /></Col>
          <Col xs={12} md={6}><Statistic title={t('returns.report.rmas')} value={data?.totals.rmas ?? 0} /></Col>
          <Col xs={12} md={6}><Statistic title={t('returns.report.shippedUnits')} value={data?.totals.shipped ?? 0} /></Col>
          <Col xs={12} md={6}><Statistic title={t('returns.report.rate')} value={data && data.totals.shipped ? `${((data.totals.units / data.totals.shipped) * 100).toFixed(1)}%` : '—'} /></Col>
        </Row>
      </Card>
      <Card title={t('returns.report.chart')}>
        {data && data.byDay.length ? <ReturnsChart data={returnsChartData(data.byDay, (d) => t(`returns.disposition.${d}`), t('returns.report.units'))} /> : <Empty />}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('returns.report.byReason')} size="small">
            <Table size="small" pagination={false} rowKey="reason" dataSource={data?.byReason ?? []} columns={[
              { key: 'reason', dataIndex: 'reason', title: t('returns.fields.reason'), render: (v: string) => t(`returns.reason.${v}`) },
              { key: 'units', dataIndex: 'units', title: t('returns.fields.units'), align: 'right' },
            ]} />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('returns.report.byDisposition')} size="small">
            <Table size="small" pagination={false} rowKey="disposition" dataSource={data?.byDisposition ?? []} columns={[
              { key: 'disposition', dataIndex: 'disposition', title: t('returns.fields.disposition'), render: (v: string) => t(`returns.disposition.${v}`) },
              { key: 'units', dataIndex: 'units', title: t('returns.fields.units'), align: 'right' },
            ]} />
          </Card>
        </Col>
      </Row>
      <Card title={t('returns.report.bySku')} size="small">
        <Table<ReturnsReport['bySku'][number]> size="small" rowKey="skuId" dataSource={data?.bySku ?? []} scroll={{ x: true }} data-testid="return-rate" columns={[
          { key: 'skuCode', dataIndex: 'skuCode', title: t('returns.fields.sku') },
          { key: 'customerName', dataIndex: 'customerName', title: t('returns.fields.customer') },
          { key: 'returned', dataIndex: 'returned', title: t('returns.report.units'), align: 'right' },
          { key: 'shipped', dataIndex: 'shipped', title: t('returns.report.shippedUnits'), align: 'right' },
          { key: 'rate', dataIndex: 'rate', title: t('returns.report.rate'), align: 'right', render: (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`) },
        ]} />
      </Card>
    </Space>
  );
}

function ReturnsChart({ data }: { data: ChartInput }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!ref.current) return;
    const instance = echarts.init(ref.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(ref.current);
    return () => { observer.disconnect(); instance.dispose(); chart.current = null; };
  }, []);
  useEffect(() => { chart.current?.setOption(chartOption(data, false, { minInterval: 1 }), true); }, [data]);
  return <div ref={ref} style={{ width: '100%', height: 280 }} role="img" aria-label="returns chart" data-testid="returns-chart" />;
}
