import { useState } from 'react';
import { Button, Popconfirm, Segmented, Space, Tag, Tooltip } from 'antd';
import { CheckOutlined, CloseOutlined, EditOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { mayAct } from '../../../lib/status-actions';
import { useT } from '../../../lib/i18n/use-t';
import { notifyInfo } from '../../../lib/toast';
import { useKeyedAction } from '../../../lib/action-key';
import { RuleDrawer } from '../components/RuleDrawer';
import { formatDateTime } from '../format';
import {
  useCancelTaskMutation, useCompleteTaskMutation, useGenerateTasksMutation, useGetReplenishmentRulesQuery, useGetReplenishmentTaskFiltersQuery,
  useGetReplenishmentTasksQuery, type ReplenishmentRule, type ReplenishmentTask,
} from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';

type View = 'rules' | 'tasks';

/** /ProductReplenishment: min/max per pick location, and the tasks that refill them from bulk storage. */
export default function ReplenishmentPage() {
  const t = useT();
  const [view, setView] = useState<View>('rules');
  const switcher = (
    <Segmented<View> value={view} onChange={setView} options={[
      { value: 'rules', label: t('inventory.replenishment.rules') },
      { value: 'tasks', label: t('inventory.replenishment.tasks') },
    ]} />
  );
  return view === 'rules' ? <RulesView switcher={switcher} /> : <TasksView switcher={switcher} />;
}

function RulesView({ switcher }: { switcher: React.ReactNode }) {
  const t = useT();
  const { canWrite } = useInventoryScope('ProductReplenishment');
  const drawer = useFormDrawer<ReplenishmentRule>();
  const columns: ColumnsType<ReplenishmentRule> = [
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inventory.fields.pickLocation'), sorter: true },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inventory.fields.sku'), sorter: true },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer'), sorter: true },
    { key: 'minQty', dataIndex: 'minQty', title: t('inventory.fields.minQty'), align: 'right', sorter: true },
    { key: 'maxQty', dataIndex: 'maxQty', title: t('inventory.fields.maxQty'), align: 'right', sorter: true },
    {
      key: 'onHand', dataIndex: 'onHand', title: t('inventory.fields.onHand'), align: 'right',
      render: (v: number, r: ReplenishmentRule) => (r.belowMin ? <Tag color="red">{v} · {t('inventory.replenishment.belowMin')}</Tag> : v),
    },
    { key: 'isActive', dataIndex: 'isActive', title: t('inventory.fields.status'), render: (v: boolean) => <StatusTag active={v} /> },
    ...(canWrite ? [{
      key: 'actions', title: t('table.actions'), fixed: 'right' as const,
      render: (_: unknown, r: ReplenishmentRule) => (
        <Button type="link" size="small" icon={<EditOutlined />} onClick={() => drawer.openEdit(r)}>{t('table.edit')}</Button>
      ),
    }] : []),
  ];
  return (
    <DataTablePage<ReplenishmentRule>
      key="rules"
      title={t('routes.ProductReplenishment')}
      subtitle={t('inventory.replenishment.rulesSubtitle')}
      rowKey="ruleId"
      columns={columns}
      useList={useGetReplenishmentRulesQuery}
      searchPlaceholder={t('inventory.replenishment.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      actions={switcher}
      onAdd={canWrite ? drawer.openCreate : undefined}
      addLabel={t('inventory.replenishment.addRule')}
    >
      <RuleDrawer open={drawer.open} rule={drawer.editing} onClose={drawer.close} />
    </DataTablePage>
  );
}

function TasksView({ switcher }: { switcher: React.ReactNode }) {
  const t = useT();
  const { canWrite, warehouseId, customerId } = useInventoryScope('ProductReplenishment');
  const { data: filters } = useGetReplenishmentTaskFiltersQuery();
  const [generate, { isLoading: generating }] = useGenerateTasksMutation();
  const [complete] = useCompleteTaskMutation();
  const [cancel] = useCancelTaskMutation();
  const act = useKeyedAction();

  const onGenerate = async () => {
    const result = await act('generate', { warehouseId, ...(customerId ? { customerId } : {}) }, generate);
    const shortages = result?.data.shortages ?? [];
    if (shortages.length) notifyInfo(t('inventory.replenishment.shortages', { list: shortages.map((s) => `${s.skuCode} @ ${s.locationCode} (${s.needed})`).join(', ') }));
  };

  const columns: ColumnsType<ReplenishmentTask> = [
    { key: 'createdAt', dataIndex: 'createdAt', title: t('inventory.fields.createdAt'), sorter: true, render: formatDateTime },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inventory.fields.sku'), sorter: true },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer') },
    { key: 'fromLocationCode', dataIndex: 'fromLocationCode', title: t('inventory.fields.fromLocation'), sorter: true },
    { key: 'toLocationCode', dataIndex: 'toLocationCode', title: t('inventory.fields.toLocation'), sorter: true },
    { key: 'lot', dataIndex: 'lot', title: t('inventory.fields.lot'), render: (v: string) => v || '—' },
    { key: 'quantity', dataIndex: 'quantity', title: t('inventory.fields.quantity'), align: 'right' },
    { key: 'status', dataIndex: 'status', title: t('inventory.fields.status'), sorter: true, render: (v: string) => <StatusTag kind="REPLENISHMENT_TASK" status={v} /> },
    { key: 'completedBy', dataIndex: 'completedBy', title: t('inventory.fields.completedBy'), render: (v: string | null) => v ?? '—' },
    ...(canWrite ? [{
      key: 'actions', title: t('table.actions'), fixed: 'right' as const,
      render: (_: unknown, task: ReplenishmentTask) => (mayAct('REPLENISHMENT_TASK', task.status, 'complete') || mayAct('REPLENISHMENT_TASK', task.status, 'cancel')) && (
        <Space size={0}>
          {mayAct('REPLENISHMENT_TASK', task.status, 'complete') && <Popconfirm title={t('inventory.replenishment.confirmComplete', { quantity: task.quantity, to: task.toLocationCode })}
            okText={t('inventory.replenishment.complete')} cancelText={t('form.close')}
            onConfirm={() => act(`complete:${task.taskId}`, { taskId: task.taskId }, complete)}>
            <Button type="link" size="small" icon={<CheckOutlined />}>{t('inventory.replenishment.complete')}</Button>
          </Popconfirm>}
          {/* The destructive action says what it cancels, and its confirmation offers "Keep Task", never a second "Cancel". */}
          {mayAct('REPLENISHMENT_TASK', task.status, 'cancel') && <Popconfirm title={t('inventory.replenishment.confirmCancel')} okText={t('inventory.replenishment.cancelTask')} okButtonProps={{ danger: true }}
            cancelText={t('inventory.replenishment.keepTask')}
            onConfirm={() => act(`cancelTask:${task.taskId}`, { taskId: task.taskId }, cancel)}>
            <Button type="link" size="small" danger icon={<CloseOutlined />}>{t('inventory.replenishment.cancelTask')}</Button>
          </Popconfirm>}
        </Space>
      ),
    }] : []),
  ];

  return (
    <DataTablePage<ReplenishmentTask>
      key="tasks"
      title={t('routes.ProductReplenishment')}
      subtitle={t('inventory.replenishment.tasksSubtitle')}
      rowKey="taskId"
      columns={columns}
      useList={useGetReplenishmentTasksQuery}
      filters={filters}
      searchPlaceholder={t('inventory.replenishment.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: 'Warehouse/Replenishment/DownloadReplenishmentTasksExcel', fileName: 'replenishment-tasks.xlsx' }}
      actions={
        <>
          {switcher}
          {canWrite && (
            <Tooltip title={warehouseId ? undefined : t('inventory.chooseWarehouse')}>
              {/* A disabled button gets no hover events; the span carries the tooltip. */}
              <span>
                <Button type="primary" icon={<ThunderboltOutlined />} loading={generating} disabled={!warehouseId} onClick={() => void onGenerate()}>
                  {t('inventory.replenishment.generate')}
                </Button>
              </span>
            </Tooltip>
          )}
        </>
      }
    />
  );
}
