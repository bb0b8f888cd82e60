import { Link } from 'react-router';
import { Card, Col, Row, Typography } from 'antd';
import { FileSearchOutlined, ImportOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useT } from '../../../lib/i18n/use-t';
import '../messages';
import '../inbound.css';

/** The receiving lists (every order, line and receipt, searchable), below the reports. */
export function ReceivingLists() {
  const t = useT();
  const lists = [
    { path: '/ROReport', icon: <UnorderedListOutlined />, title: t('routes.ROReport'), text: t('inbound.reports.summaryText') },
    { path: '/ROReportDetails', icon: <FileSearchOutlined />, title: t('routes.ROReportDetails'), text: t('inbound.reports.detailsText') },
    { path: '/ROInward', icon: <ImportOutlined />, title: t('routes.ROInward'), text: t('inbound.reports.inwardText') },
  ];
  return (
    <div className="bolx-inbound-reports">
      <div className="bolx-inbound-reports__heading">
        <Typography.Title level={5}>{t('reports.inbound.lists')}</Typography.Title>
        <Typography.Text type="secondary">{t('reports.inbound.listsHint')}</Typography.Text>
      </div>
      <Row gutter={[16, 16]}>
        {lists.map((r) => (
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
