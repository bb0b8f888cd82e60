import { Button, Card, Col, Progress, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import type { BatchAllocationSummary } from '@bolx/contracts';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { shortLineRows, type AllocationRun } from '../floor-model';

const PHASE_COLOUR = { queued: 'default', running: 'processing', done: 'success', failed: 'error' } as const;

/**
 * The allocation run's progress card: how far the job is, then its summary (fully, partially, not allocated,
 * refused; short lines by reason; each order that did not allocate fully, with why).
 */
export function AllocationProgressCard({ run, onDismiss }: { run: AllocationRun; onDismiss: () => void }) {
  const t = useT();
  const finished = run.phase === 'done' || run.phase === 'failed';
  return (
    <Card
      size="small"
      className="bolx-floor-run"
      data-testid="allocation-run"
      data-phase={run.phase}
      title={<Space wrap>{t('floor.run.title')}<Tag color={PHASE_COLOUR[run.phase]}>{t(`floor.run.phase.${run.phase}`)}</Tag></Space>}
      extra={finished && <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('floor.run.dismiss')} onClick={onDismiss} />}
    >
      <Progress
        percent={run.percent ?? 0}
        status={run.phase === 'failed' ? 'exception' : run.phase === 'done' ? 'success' : 'active'}
        size="small"
      />
      {!finished && (
        <Typography.Text type="secondary">
          {run.message ?? (run.total ? t('floor.run.progress', { done: run.done, total: run.total }) : t('floor.run.waiting'))}
        </Typography.Text>
      )}
      {run.phase === 'failed' && <Typography.Text type="danger">{run.error ?? t('floor.run.failed')}</Typography.Text>}
      {run.phase === 'done' && (run.summary ? <Summary summary={run.summary} /> : <Typography.Text>{t('floor.run.noSummary')}</Typography.Text>)}
    </Card>
  );
}

function Summary({ summary }: { summary: BatchAllocationSummary }) {
  const t = useT();
  const shortLines = shortLineRows(summary);
  const stats: { key: string; value: number; colour?: string }[] = [
    { key: 'orders', value: summary.orders },
    { key: 'fully', value: summary.fully, colour: '#52c41a' },
    { key: 'partially', value: summary.partially, colour: summary.partially ? '#faad14' : undefined },
    { key: 'notAllocated', value: summary.notAllocated, colour: summary.notAllocated ? '#ff4d4f' : undefined },
    { key: 'refused', value: summary.refused, colour: summary.refused ? '#ff4d4f' : undefined },
  ];
  return (
    <div className="bolx-floor-run__summary" data-testid="allocation-summary">
      <Row gutter={[12, 12]}>
        {stats.map((s) => (
          <Col key={s.key} xs={12} sm={8} md={4}>
            <Statistic title={t(`floor.run.${s.key}`)} value={s.value} valueStyle={s.colour ? { color: s.colour } : undefined} />
          </Col>
        ))}
      </Row>
      {shortLines.length > 0 && (
        <div className="bolx-floor-run__short">
          <Typography.Text strong>{t('floor.run.shortLines')}</Typography.Text>{' '}
          {shortLines.map((s) => <Tag key={s.reason} color="orange" data-reason={s.reason}>{`${t(`floor.short.${s.reason}`)}: ${s.count}`}</Tag>)}
        </div>
      )}
      {summary.notFully.length > 0 && (
        <Table
          size="small"
          rowKey="orderId"
          className="bolx-floor-run__orders"
          scroll={{ x: 'max-content' }}
          pagination={summary.notFully.length > 10 ? { pageSize: 10, size: 'small' } : false}
          dataSource={summary.notFully}
          columns={[
            { key: 'soNumber', dataIndex: 'soNumber', title: t('floor.col.order') },
            { key: 'status', dataIndex: 'status', title: t('floor.col.status'), render: (s: string) => <StatusTag kind="SALES_ORDER" status={s} /> },
            { key: 'reason', dataIndex: 'reason', title: t('floor.col.why') },
          ]}
        />
      )}
    </div>
  );
}
