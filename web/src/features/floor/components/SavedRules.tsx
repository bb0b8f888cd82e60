import { Button, Card, Empty, List, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlayCircleOutlined, SelectOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import type { BatchRuleCriteria, SavedBatchRule } from '@bolx/contracts';
import { useDeleteBatchRuleMutation, useGetBatchRulesQuery } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT, type Translate } from '../../../lib/i18n/use-t';

/** A rule's criteria in a line ("Client ACME · ship by 2026-05-01 · single-line · zone A"). */
export function describeCriteria(criteria: BatchRuleCriteria, t: Translate, customerName: (id: number) => string | undefined): string {
  const parts = [
    criteria.customerId ? customerName(criteria.customerId) ?? `#${criteria.customerId}` : t('floor.rule.allClients'),
    criteria.shipDateTo && t('floor.describe.shipDateTo', { date: criteria.shipDateTo }),
    criteria.carrierService && criteria.carrierService,
    criteria.lineShape && criteria.lineShape !== 'any' && t(`floor.lineShape.${criteria.lineShape}`),
    criteria.priorityTo && t('floor.describe.priorityTo', { priority: criteria.priorityTo }),
    criteria.zone && t('floor.describe.zone', { zone: criteria.zone }),
    criteria.maxOrders && t('floor.describe.maxOrders', { count: criteria.maxOrders }),
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The warehouse's saved rules: use one in the form, run it again, or delete it. */
export function SavedRules({ warehouseId, activeRuleId, canWrite, running, customerName, onUse, onRun }: {
  warehouseId: number;
  activeRuleId?: number;
  canWrite: boolean;
  running: boolean;
  customerName: (id: number) => string | undefined;
  onUse: (rule: SavedBatchRule) => void;
  onRun: (rule: SavedBatchRule) => void;
}) {
  const t = useT();
  const intl = useIntl();
  const { data, isLoading } = useGetBatchRulesQuery({ warehouseId }, { skip: !warehouseId });
  const [remove] = useDeleteBatchRuleMutation();
  return (
    <Card size="small" title={t('floor.rules.title')} className="bolx-floor-rules" data-testid="saved-rules">
      <List<SavedBatchRule>
        loading={isLoading}
        dataSource={data?.items ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('floor.rules.none')} /> }}
        renderItem={(rule) => (
          <List.Item className={rule.ruleId === activeRuleId ? 'bolx-floor-rules__item--active' : undefined}>
            <div className="bolx-floor-rules__item">
              <Typography.Text strong>{rule.name}</Typography.Text>
              <div><Typography.Text type="secondary">{describeCriteria(rule.criteria, t, customerName)}</Typography.Text></div>
              <div>
                <Typography.Text type="secondary" className="bolx-floor-rules__run">
                  {rule.lastRunAt ? t('floor.rules.lastRun', { at: intl.formatDate(rule.lastRunAt, { dateStyle: 'medium', timeStyle: 'short' }) }) : t('floor.rules.neverRun')}
                </Typography.Text>
              </div>
              <Space size={0} wrap>
                <Button type="link" size="small" icon={<SelectOutlined />} onClick={() => onUse(rule)}>{t('floor.rules.use')}</Button>
                {canWrite && (
                  <Tooltip title={t('floor.rules.runHelp')}>
                    <Button type="link" size="small" icon={<PlayCircleOutlined />} disabled={running} onClick={() => onRun(rule)}>{t('floor.rules.run')}</Button>
                  </Tooltip>
                )}
                {canWrite && (
                  <Popconfirm title={t('floor.rules.confirmDelete', { name: rule.name })} okText={t('floor.rules.delete')} okButtonProps={{ danger: true }} cancelText={t('form.close')}
                    onConfirm={() => runMutation(remove({ ruleId: rule.ruleId }))}>
                    <Button type="link" size="small" danger icon={<DeleteOutlined />}>{t('floor.rules.delete')}</Button>
                  </Popconfirm>
                )}
              </Space>
            </div>
          </List.Item>
        )}
      />
    </Card>
  );
}
