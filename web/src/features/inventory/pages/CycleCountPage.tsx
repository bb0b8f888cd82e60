import { useState } from 'react';
import { Button } from 'antd';
import { EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { CountSheetDrawer } from '../components/CountSheetDrawer';
import { CreateCountDrawer } from '../components/CreateCountDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { formatDateTime } from '../format';
import { useGetCycleCountFiltersQuery, useGetCycleCountsQuery, type CycleCount } from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';

/** /CycleCount: counts by location range, SKU or ABC class; count, recount variances, approve or cancel. */
export default function CycleCountPage() {
  const t = useT();
  const { canWrite } = useInventoryScope('CycleCount');
  const [creating, setCreating] = useState(false);
  const [sheet, setSheet] = useState<number>();
  const { data: filters } = useGetCycleCountFiltersQuery();

  const columns: ColumnsType<CycleCount> = [
    { key: 'countNo', dataIndex: 'countNo', title: t('inventory.fields.countNo'), sorter: true },
    { key: 'countDate', dataIndex: 'countDate', title: t('inventory.fields.countDate'), sorter: true },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer'), sorter: true },
    { key: 'warehouseName', dataIndex: 'warehouseName', title: t('inventory.fields.warehouse') },
    { key: 'countType', dataIndex: 'countType', title: t('inventory.fields.countType'), render: (v: string) => t(`inventory.countType.${v}`) },
    {
      key: 'selection', title: t('inventory.fields.selection'),
      render: (_: unknown, c: CycleCount) => (c.selection === 'location' ? `${c.locationFrom} – ${c.locationTo}`
        : c.selection === 'abc' ? `${t('inventory.fields.abcClass')} ${c.abcClass}` : t('inventory.selection.sku')),
    },
    { key: 'isBlind', dataIndex: 'isBlind', title: t('inventory.fields.isBlind'), render: (v: boolean) => t(v ? 'inventory.yes' : 'inventory.no') },
    { key: 'progress', title: t('inventory.count.progress'), align: 'right', render: (_: unknown, c: CycleCount) => `${c.countedLines} / ${c.lineCount}` },
    { key: 'status', dataIndex: 'status', title: t('inventory.fields.status'), sorter: true, render: (v: string) => <StatusTag kind="CYCLE_COUNT" status={v} /> },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('inventory.fields.createdAt'), sorter: true, render: formatDateTime },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_: unknown, c: CycleCount) => {
        const counting = canWrite && (c.status === 'Open' || c.status === 'Recount');
        return (
          <Button type="link" size="small" icon={counting ? <EditOutlined /> : <EyeOutlined />} onClick={() => setSheet(c.cycleCountId)}
            aria-label={`${c.countNo}`}>
            {t(c.status === 'Open' && counting ? 'inventory.count.enter' : c.status === 'Recount' && counting ? 'inventory.count.recount' : 'table.view')}
          </Button>
        );
      },
    },
  ];

  return (
    <DataTablePage<CycleCount>
      title={t('routes.CycleCount')}
      subtitle={t('inventory.count.subtitle')}
      rowKey="cycleCountId"
      columns={columns}
      useList={useGetCycleCountsQuery}
      filters={filters}
      searchPlaceholder={t('inventory.count.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: 'Warehouse/CycleCount/DownloadCycleCountsExcel', fileName: 'cycle-counts.xlsx' }}
      onAdd={canWrite ? () => setCreating(true) : undefined}
      addLabel={t('inventory.count.add')}
    >
      <CreateCountDrawer open={creating} onClose={() => setCreating(false)} onCreated={setSheet} />
      <CountSheetDrawer cycleCountId={sheet} onClose={() => setSheet(undefined)} />
    </DataTablePage>
  );
}
