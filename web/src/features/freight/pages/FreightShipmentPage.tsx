import { useEffect, useReducer } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Space, Tabs, Tooltip, Typography } from 'antd';
import { EditOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { FREIGHT_STATUSES, type FilterLabel } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useDownload } from '../../../components/download/use-download';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { useAppSelector } from '../../../lib/hooks';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { useCanWrite } from '../../../lib/use-can-write';
import { FREIGHT_PATHS, useGetFreightShipmentQuery, useGetFreightShipmentsQuery, type FreightShipment } from '../freight-api';
import { freightTabsReducer, initialFreightTabs } from '../freight-tabs';
import { FreightShipmentForm } from '../components/FreightShipmentForm';
import '../freight.css';

/**
 * /FreightShipment: a tabbed screen (spec section 2). The dashboard tab lists the shipments (the one table page,
 * live over the hub); "New Freight Shipment" and editing open their own closable tabs, as freight-tabs.ts rules.
 */
export default function FreightShipmentPage() {
  const t = useT();
  const [state, dispatch] = useReducer(freightTabsReducer, undefined, initialFreightTabs);
  // ?shipmentId=ID (a help desk ticket's "About"): that shipment opens in the edit tab, as the dashboard's edit does.
  const [params, setParams] = useSearchParams();
  const linkedId = Number(params.get('shipmentId')) || 0;
  const linked = useGetFreightShipmentQuery(linkedId, { skip: !linkedId });
  useEffect(() => {
    if (!linked.data) return;
    dispatch({ type: 'edit', shipmentId: linked.data.shipmentId, shipNumber: linked.data.shipNumber });
    setParams({}, { replace: true });
  }, [linked.data, setParams]);
  const items = state.tabs.map((tab) => ({
    key: tab.key,
    label: tab.label,
    closable: tab.closable,
    children: tab.kind === 'dashboard'
      ? <FreightDashboard onNew={() => dispatch({ type: 'new' })} onEdit={(s) => dispatch({ type: 'edit', shipmentId: s.shipmentId, shipNumber: s.shipNumber })} />
      : tab.kind === 'new'
        ? <FreightShipmentForm key={tab.key} onCreated={(s) => dispatch({ type: 'created', newKey: tab.key, ...s })} />
        : <FreightShipmentForm key={tab.key} shipmentId={tab.shipmentId} />,
  }));
  return (
    <>
    {linked.isError && <Alert type="warning" showIcon closable message={t('freight.linkedNotFound')} onClose={() => setParams({}, { replace: true })} data-testid="freight-linked-missing" />}
    <Tabs
      className="bolx-freight-tabs"
      type="editable-card"
      hideAdd
      activeKey={state.activeKey}
      items={items}
      onChange={(key) => dispatch({ type: 'activate', key })}
      onEdit={(key, action) => { if (action === 'remove' && typeof key === 'string') dispatch({ type: 'close', key }); }}
      destroyInactiveTabPane={false}
    />
    </>
  );
}

function FreightDashboard({ onNew, onEdit }: { onNew: () => void; onEdit: (s: FreightShipment) => void }) {
  const t = useT();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const canWrite = useCanWrite('FreightShipment');
  const [download] = useDownload();
  const filters: FilterLabel[] = [
    { key: 'status', label: t('freight.f.status'), type: 'select', options: FREIGHT_STATUSES.map((s) => ({ value: s, label: s })) },
    { key: 'scac', label: t('freight.f.scac'), type: 'text' },
  ];
  const columns: ColumnsType<FreightShipment> = [
    {
      key: 'shipNumber', dataIndex: 'shipNumber', title: t('freight.f.shipNumber'), sorter: true,
      render: (v: string, r) => <><Typography.Link strong onClick={() => onEdit(r)}>{v}</Typography.Link><div><Typography.Text type="secondary">BOL {r.bolNumber}</Typography.Text></div></>,
    },
    { key: 'status', dataIndex: 'status', title: t('freight.f.status'), sorter: true, render: (s: string) => <StatusTag kind="FREIGHT_SHIPMENT" status={s} /> },
    { key: 'customerName', dataIndex: 'customerName', title: t('freight.f.customer'), sorter: true },
    {
      key: 'consigneeName', title: t('freight.f.consignee'), sorter: true,
      render: (_: unknown, r) => <>{r.consignee.name}<div><Typography.Text type="secondary">{r.consignee.city}, {r.consignee.state} {r.consignee.zip}</Typography.Text></div></>,
    },
    { key: 'carrierName', title: t('freight.f.carrier'), sorter: true, render: (_: unknown, r) => <>{r.carrierName}<div><Typography.Text type="secondary">{r.scac}</Typography.Text></div></> },
    { key: 'proNumber', dataIndex: 'proNumber', title: t('freight.f.pro'), sorter: true, render: (v: string | null) => v ?? '—' },
    { key: 'pickupDate', title: t('freight.f.pickup'), sorter: true, render: (_: unknown, r) => (r.pickupDate ? `${r.pickupDate}${r.pickupWindowFrom ? ` ${r.pickupWindowFrom}–${r.pickupWindowTo ?? ''}` : ''}` : '—') },
    { key: 'orders', title: t('freight.f.orders'), render: (_: unknown, r) => r.orders.map((o) => o.soNumber).join(', ') },
    { key: 'units', title: t('freight.f.units'), align: 'right', render: (_: unknown, r) => `${r.totalHandlingUnits} / ${r.totalPieces} pcs` },
    { key: 'weight', title: t('freight.f.weight'), align: 'right', render: (_: unknown, r) => r.totalWeightKg.toLocaleString() },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_: unknown, r) => (
        <Space size={0}>
          <Tooltip title={t('freight.edit')}><Button type="link" size="small" icon={<EditOutlined />} aria-label={`${t('freight.edit')} ${r.shipNumber}`} onClick={() => onEdit(r)} /></Tooltip>
          <Tooltip title={t('freight.printBol')}>
            <Button type="link" size="small" icon={<PrinterOutlined />} aria-label={`${t('freight.printBol')} ${r.shipNumber}`}
              onClick={() => download(FREIGHT_PATHS.billOfLading(r.shipmentId), `bol-${r.shipNumber}.pdf`)} />
          </Tooltip>
        </Space>
      ),
    },
  ];
  const actions = canWrite && (
    <Tooltip title={warehouseId ? undefined : t('freight.chooseWarehouse')}>
      <span>
        <Button type="primary" icon={<PlusOutlined />} disabled={!warehouseId} onClick={onNew} data-testid="new-freight-shipment">{t('freight.new')}</Button>
      </span>
    </Tooltip>
  );
  return (
    <DataTablePage<FreightShipment>
      title={t('freight.title')}
      subtitle={t('freight.dashboardSubtitle')}
      rowKey="shipmentId"
      columns={columns}
      useList={useGetFreightShipmentsQuery}
      filters={filters}
      searchPlaceholder={t('freight.search')}
      scopeFilters={warehouseAndCustomerScope}
      actions={actions}
    />
  );
}
