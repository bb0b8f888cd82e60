import { Alert, Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useIntl } from 'react-intl';
import type { BatchRuleCriteria, BatchRulePreview } from '@bolx/contracts';
import { StatusTag } from '../../../components/StatusTag';
import { usePreviewBatchRuleQuery } from '../../../lib/api/floor-api';
import { useT } from '../../../lib/i18n/use-t';

/** The rule's live preview: how many orders, lines and units it matches, by status, and the first matched orders. */
export function RulePreview({ criteria, extra }: { criteria: BatchRuleCriteria | null; extra?: React.ReactNode }) {
  const t = useT();
  const { data, isFetching, isError, refetch } = usePreviewBatchRuleQuery(criteria ?? { warehouseId: 0, lineShape: 'any' }, { skip: !criteria });
  return (
    <Card size="small" title={t('floor.preview.title')} extra={extra} className="bolx-floor-preview" data-testid="rule-preview">
      {!criteria ? <Empty description={t('floor.chooseWarehouse')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        : isError ? <Alert type="error" showIcon message={t('floor.preview.error')} action={<Button size="small" onClick={() => refetch()}>{t('table.retry')}</Button>} />
        : !data ? <Skeleton active paragraph={{ rows: 4 }} />
        : <PreviewBody preview={data} refreshing={isFetching} />}
    </Card>
  );
}

function PreviewBody({ preview, refreshing }: { preview: BatchRulePreview; refreshing: boolean }) {
  const t = useT();
  const intl = useIntl();
  // The statuses the matched orders are in (those with none are left out).
  const statuses = preview.byStatus.filter((s) => s.count > 0);
  return (
    <div className={refreshing ? 'bolx-floor-preview--refreshing' : undefined}>
      <Row gutter={[12, 12]}>
        <Col xs={8}><Statistic title={t('floor.preview.orders')} value={preview.orders} data-testid="preview-orders" /></Col>
        <Col xs={8}><Statistic title={t('floor.preview.lines')} value={preview.lines} /></Col>
        <Col xs={8}><Statistic title={t('floor.preview.units')} value={preview.units} /></Col>
      </Row>
      {statuses.length > 0 && (
        <Space wrap size={[16, 4]} className="bolx-floor-preview__status">
          {statuses.map((s) => (
            <span key={s.status}><StatusTag kind="SALES_ORDER" status={s.status} /><Typography.Text strong>{intl.formatNumber(s.count)}</Typography.Text></span>
          ))}
        </Space>
      )}
      {preview.orders === 0 ? <Empty description={t('floor.preview.none')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> : (
        <Table
          size="small"
          rowKey="orderId"
          scroll={{ x: 'max-content' }}
          pagination={preview.sample.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
          dataSource={preview.sample}
          footer={preview.orders > preview.sample.length ? () => t('floor.preview.more', { shown: preview.sample.length, total: preview.orders }) : undefined}
          columns={[
            { key: 'soNumber', dataIndex: 'soNumber', title: t('floor.col.order'), render: (v: string, o) => <><Typography.Text strong>{v}</Typography.Text><div><Typography.Text type="secondary">{o.referenceNumber}</Typography.Text></div></> },
            { key: 'customerName', dataIndex: 'customerName', title: t('floor.col.client') },
            { key: 'status', dataIndex: 'status', title: t('floor.col.status'), render: (s: string) => <StatusTag kind="SALES_ORDER" status={s} /> },
            { key: 'priority', dataIndex: 'priority', title: t('floor.col.priority'), align: 'right', render: (p: number) => <Tag>{`P${p}`}</Tag> },
            { key: 'requestedShipDate', dataIndex: 'requestedShipDate', title: t('floor.col.shipBy'), render: (v: string | null) => v ?? '—' },
            { key: 'lineCount', dataIndex: 'lineCount', title: t('floor.col.lines'), align: 'right' },
            { key: 'units', dataIndex: 'units', title: t('floor.col.units'), align: 'right', render: (v: number) => intl.formatNumber(v) },
          ]}
        />
      )}
    </div>
  );
}
