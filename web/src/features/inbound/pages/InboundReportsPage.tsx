import { Link } from 'react-router';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { FileSearchOutlined, ImportOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { ReceivingStatus } from '@bolx/contracts';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useListState } from '../../../components/data-table/use-list-state';
import { useT } from '../../../lib/i18n/use-t';
import { useGetROInwardQuery, useGetROReportQuery } from '../inbound-api';
import '../inbound.css';

/** How many ROs in the header's scope have a status (a one-row page of the summary report: its total). */
function useStatusCount(status: ReceivingStatus) {
  const { args } = useListState({ scopeFilters: warehouseAndCustomerScope });
  const { data, isError } = useGetROReportQuery({ ...args, filters: { ...args.filters, status }, pageSize: 1 });
  return isError ? undefined : data?.totalCount;
}

/** /InboundReports: the three RO reports, with a few numbers of the header's scope to start from. */
export default function InboundReportsPage() {
  const t = useT();
  const open = useStatusCount('Open');
  const receiving = useStatusCount('Receiving');
  const received = useStatusCount('Received');
  const { args } = useListState({ scopeFilters: warehouseAndCustomerScope });
  // Today is each warehouse's business day in its own time zone, reckoned by the server (not the browser's date).
  const { data: inward, isError } = useGetROInwardQuery({ ...args, filters: { ...args.filters, today: true }, pageSize: 1 });
  const kpis = [
    { key: 'open', title: t('inbound.kpi.open'), value: open },
    { key: 'receiving', title: t('inbound.kpi.receiving'), value: receiving },
    { key: 'received', title: t('inbound.kpi.received'), value: received },
    { key: 'today', title: t('inbound.kpi.receiptsToday'), value: isError ? undefined : inward?.totalCount },
  ];
  const reports = [
    { path: '/ROReport', icon: <UnorderedListOutlined />, title: t('routes.ROReport'), text: t('inbound.reports.summaryText') },
    { path: '/ROReportDetails', icon: <FileSearchOutlined />, title: t('routes.ROReportDetails'), text: t('inbound.reports.detailsText') },
    { path: '/ROInward', icon: <ImportOutlined />, title: t('routes.ROInward'), text: t('inbound.reports.inwardText') },
  ];
  return (
    <div className="bolx-page bolx-inbound-reports">
      <div className="bolx-inbound-reports__heading">
        <Typography.Title level={3}>{t('routes.InboundReports')}</Typography.Title>
        <Typography.Text type="secondary">{t('inbound.reports.hubText')}</Typography.Text>
      </div>
      <Row gutter={[16, 16]} className="bolx-inbound-reports__kpis">
        {kpis.map((k) => (
          <Col key={k.key} xs={12} md={6}>
            <Card size="small"><Statistic title={k.title} value={k.value ?? '—'} /></Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        {reports.map((r) => (
          <Col key={r.path} xs={24} md={8}>
            <Link to={r.path} className="bolx-inbound-reports__link">
              <Card hoverable className="bolx-inbound-reports__card">
                <div className="bolx-inbound-reports__icon">{r.icon}</div>
                <Typography.Title level={5}>{r.title}</Typography.Title>
                <Typography.Text type="secondary">{r.text}</Typography.Text>
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </div>
  );
}
