import { useState, type ReactNode } from 'react';
import { Button, Popconfirm, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import { BuildOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { WORK_ORDER_STATUSES, WORK_ORDER_TYPES, type FilterLabel } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { mayAct } from '../../../lib/status-actions';
import { WorkOrderDrawer, type WorkOrderPreset } from '../components/WorkOrderDrawer';
import {
  useCancelWorkOrderMutation, useCompleteWorkOrderMutation, useGetKitAvailabilityQuery, useGetWorkOrdersQuery, type KitAvailability, type WorkOrder,
} from '../kits-api';
import { useKitScope } from '../use-kit-scope';
import { useKeyedAction } from '../../../lib/action-key';

type View = 'availability' | 'workOrders';

/** /KitDashboard: what each kit has built and could build, and the work orders that build kits or take them apart. */
export default function KitDashboardPage() {
  const t = useT();
  const [view, setView] = useState<View>('availability');
  const [drawer, setDrawer] = useState<{ open: boolean; preset?: WorkOrderPreset }>({ open: false });
  const { warehouseId, canWrite } = useKitScope();
  const openDrawer = (preset?: WorkOrderPreset) => setDrawer({ open: true, preset });
  const switcher = (
    <Segmented<View> value={view} onChange={setView} options={[
      { value: 'availability', label: t('kits.view.availability') },
      { value: 'workOrders', label: t('kits.view.workOrders') },
    ]} />
  );
  // Work orders are made in one warehouse: the Add button waits for the header's choice.
  const actions = (
    <>
      {switcher}
      {canWrite && (
        <Tooltip title={warehouseId ? undefined : t('kits.chooseWarehouse')}>
          <span>
            <Button type="primary" icon={<BuildOutlined />} disabled={!warehouseId} onClick={() => openDrawer()} data-testid="add-work-order">
              {t('kits.addWorkOrder')}
            </Button>
          </span>
        </Tooltip>
      )}
    </>
  );
  const drawerNode = (
    <WorkOrderDrawer key={drawer.open ? JSON.stringify(drawer.preset ?? {}) : 'closed'} open={drawer.open} preset={drawer.preset}
      onClose={() => setDrawer({ open: false })} />
  );
  return view === 'availability'
    ? <AvailabilityView actions={actions} onBuild={(k) => { setView('workOrders'); openDrawer(k); }}>{drawerNode}</AvailabilityView>
    : <WorkOrdersView actions={actions}>{drawerNode}</WorkOrdersView>;
}

function AvailabilityView({ actions, onBuild, children }: { actions: ReactNode; onBuild: (preset: WorkOrderPreset) => void; children: ReactNode }) {
  const t = useT();
  const { warehouseId, canWrite } = useKitScope();
  // A kit shows once per warehouse: with every warehouse listed, the row says which.
  const columns: ColumnsType<KitAvailability> = [
    {
      key: 'kitSkuCode', dataIndex: 'kitSkuCode', title: t('kits.fields.kitSku'), sorter: true,
      render: (code: string, r) => <><Typography.Text strong>{code}</Typography.Text>{r.kitDescription && <div><Typography.Text type="secondary">{r.kitDescription}</Typography.Text></div>}</>,
    },
    ...(warehouseId ? [] : [{ key: 'warehouseName', dataIndex: 'warehouseName', title: t('kits.fields.warehouse'), sorter: true }]),
    { key: 'customerName', dataIndex: 'customerName', title: t('kits.fields.customer'), sorter: true },
    { key: 'onHand', dataIndex: 'onHand', title: t('kits.fields.onHand'), align: 'right' },
    { key: 'free', dataIndex: 'free', title: t('kits.fields.free'), align: 'right' },
    {
      key: 'buildable', dataIndex: 'buildable', title: t('kits.fields.buildable'), align: 'right',
      render: (v: number) => <Tag color={v > 0 ? 'green' : 'red'}>{v}</Tag>,
    },
    {
      key: 'limiting', title: t('kits.fields.limiting'),
      render: (_: unknown, r) => r.limitingComponent
        ? t('kits.fields.limitingText', { sku: r.limitingComponent.skuCode, free: r.limitingComponent.free, perKit: r.limitingComponent.perKit })
        : '—',
    },
    ...(canWrite && warehouseId ? [{
      key: 'actions', title: t('table.actions'), fixed: 'right' as const,
      render: (_: unknown, r: KitAvailability) => (
        <Button type="link" size="small" icon={<BuildOutlined />} disabled={r.buildable === 0}
          onClick={() => onBuild({ type: 'Build', customerId: r.customerId, kitSkuId: r.kitSkuId, quantity: Math.min(r.buildable, 1) || undefined })}>
          {t('kits.build')}
        </Button>
      ),
    }] : []),
  ];
  return (
    <DataTablePage<KitAvailability>
      key="availability"
      title={t('routes.KitDashboard')}
      subtitle={t('kits.availabilitySubtitle')}
      rowKey="uniqueid"
      columns={columns}
      useList={useGetKitAvailabilityQuery}
      searchPlaceholder={t('kits.searchKits')}
      scopeFilters={warehouseAndCustomerScope}
      actions={actions}
    >
      {children}
    </DataTablePage>
  );
}

function WorkOrdersView({ actions, children }: { actions: ReactNode; children: ReactNode }) {
  const t = useT();
  const { canWrite } = useKitScope();
  const [complete] = useCompleteWorkOrderMutation();
  const [cancel] = useCancelWorkOrderMutation();
  const act = useKeyedAction();
  const filters: FilterLabel[] = [
    { key: 'status', label: t('kits.fields.status'), type: 'select', options: WORK_ORDER_STATUSES.map((s) => ({ value: s, label: t(`kits.status.${s}`) })) },
    { key: 'type', label: t('kits.fields.type'), type: 'select', options: WORK_ORDER_TYPES.map((s) => ({ value: s, label: t(`kits.type.${s}`) })) },
  ];
  const columns: ColumnsType<WorkOrder> = [
    { key: 'woNumber', dataIndex: 'woNumber', title: t('kits.fields.woNumber'), sorter: true },
    { key: 'type', dataIndex: 'type', title: t('kits.fields.type'), sorter: true, render: (v: string) => t(`kits.type.${v}`) },
    { key: 'kitSkuCode', dataIndex: 'kitSkuCode', title: t('kits.fields.kitSku'), sorter: true },
    { key: 'quantity', dataIndex: 'quantity', title: t('kits.fields.quantity'), align: 'right', sorter: true },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('kits.fields.location') },
    { key: 'status', dataIndex: 'status', title: t('kits.fields.status'), sorter: true, render: (v: string) => <StatusTag kind="KIT_WORK_ORDER" status={v} /> },
    {
      key: 'shortages', title: t('kits.fields.shortages'),
      render: (_: unknown, r) => {
        if (r.status !== 'Open' || r.type !== 'Build') return '—';
        const short = r.components.filter((c) => c.short > 0);
        if (short.length === 0) return <Tag color="green">{t('kits.noShortage')}</Tag>;
        return <Space size={[0, 4]} wrap>{short.map((c) => <Tag key={c.skuId} color="red">{t('kits.shortBy', { sku: c.skuCode, short: c.short })}</Tag>)}</Space>;
      },
    },
    { key: 'customerName', dataIndex: 'customerName', title: t('kits.fields.customer'), sorter: true },
    { key: 'soNumber', dataIndex: 'soNumber', title: t('kits.fields.order'), render: (v: string | null) => v ?? '—' },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('kits.fields.createdAt'), sorter: true, render: (v: string) => new Date(v).toLocaleString() },
    ...(canWrite ? [{
      key: 'actions', title: t('table.actions'), fixed: 'right' as const,
      render: (_: unknown, wo: WorkOrder) => (
        <Space size={0}>
          {mayAct('KIT_WORK_ORDER', wo.status, 'complete') && (
            <Popconfirm
              title={t('kits.confirmComplete', { number: wo.woNumber, type: t(`kits.type.${wo.type}`), quantity: wo.quantity, sku: wo.kitSkuCode, location: wo.locationCode })}
              okText={t('kits.complete')} cancelText={t('form.close')}
              onConfirm={() => act(`complete:${wo.workOrderId}`, { workOrderId: wo.workOrderId }, complete)}>
              <Button type="link" size="small" icon={<CheckOutlined />}>{t('kits.complete')}</Button>
            </Popconfirm>
          )}
          {mayAct('KIT_WORK_ORDER', wo.status, 'cancel') && (
            <Popconfirm title={t('kits.confirmCancel')} okText={t('kits.cancelWorkOrder')} okButtonProps={{ danger: true }} cancelText={t('kits.keepWorkOrder')}
              onConfirm={() => act(`cancel:${wo.workOrderId}`, { workOrderId: wo.workOrderId }, cancel)}>
              <Button type="link" size="small" danger icon={<CloseOutlined />}>{t('kits.cancelWorkOrder')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    }] : []),
  ];
  return (
    <DataTablePage<WorkOrder>
      key="workOrders"
      title={t('routes.KitDashboard')}
      subtitle={t('kits.workOrdersSubtitle')}
      rowKey="workOrderId"
      columns={columns}
      useList={useGetWorkOrdersQuery}
      filters={filters}
      searchPlaceholder={t('kits.searchWorkOrders')}
      scopeFilters={warehouseAndCustomerScope}
      actions={actions}
    >
      {children}
    </DataTablePage>
  );
}
