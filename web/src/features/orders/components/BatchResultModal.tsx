import { Alert, List, Modal, Space, Tag, Typography } from 'antd';
import { useT } from '../../../lib/i18n/use-t';
import type { BatchSummary, OrderAction } from '../order-model';

/** A bulk move's answer: how many orders were done, each refused one with its reason, and allocation's short lines. */
export function BatchResultModal({ action, summary, onClose }: { action: OrderAction; summary: BatchSummary; onClose: () => void }) {
  const t = useT();
  const { done, refused, allocation, shortLines } = summary;
  return (
    <Modal
      open
      title={t('outbound.result.title', { action: t(`outbound.action.${action}`), done, refused: refused.length })}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('form.close')}
      className="bolx-order-result"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {allocation && (
          <Alert
            type={allocation.partiallyAllocated || allocation.backordered ? 'warning' : 'success'}
            showIcon
            message={t('outbound.result.allocation', { allocated: allocation.allocated, partial: allocation.partiallyAllocated, backordered: allocation.backordered })}
          />
        )}
        {shortLines.length > 0 && (
          <div>
            <Typography.Text strong>{t('outbound.result.short')}</Typography.Text>
            <div>
              {shortLines.map((s) => (
                <Tag key={s.reason} color="orange" data-reason={s.reason}>{`${t(`outbound.short.${s.reason}`)}: ${s.count}`}</Tag>
              ))}
            </div>
          </div>
        )}
        {refused.length > 0 && (
          <List
            size="small"
            header={<Typography.Text strong>{t('outbound.result.refused')}</Typography.Text>}
            dataSource={refused}
            renderItem={(r) => (
              <List.Item>
                <Typography.Text><Typography.Text strong>{r.soNumber}</Typography.Text> — {r.message}</Typography.Text>
              </List.Item>
            )}
          />
        )}
      </Space>
    </Modal>
  );
}
