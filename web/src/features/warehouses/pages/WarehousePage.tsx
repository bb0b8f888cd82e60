import { useCallback } from 'react';
import { Button } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import { ADMIN_ROLES, type Warehouse } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { useMayAccess } from '../../../lib/use-access';
import { useT } from '../../../lib/i18n/use-t';
import type { ColumnsType } from 'antd/es/table';
import { WarehouseFormDrawer } from '../components/WarehouseFormDrawer';
import { useGetWarehouseFiltersLabelsQuery, useGetWarehouseListQuery, type WarehouseColumn, type WarehouseList } from '../warehouses-api';

/** The server's column set, used until the first answer names it. */
const DEFAULT_COLUMNS: WarehouseColumn[] = [
  { key: 'warehouseCode', title: 'Code', sortable: true },
  { key: 'warehouseName', title: 'Warehouse Name', sortable: true },
  { key: 'city', title: 'City', sortable: true },
  { key: 'state', title: 'State', sortable: false },
  { key: 'country', title: 'Country', sortable: false },
  { key: 'timezone', title: 'Time Zone', sortable: false },
  { key: 'capacity', title: 'Capacity', sortable: true },
  { key: 'isActive', title: 'Status', sortable: false },
];

/** /Warehouse: the warehouses in the user's scope, with the columns the server names; add and edit. */
export default function WarehousePage() {
  const t = useT();
  const intl = useIntl();
  // The server's write policy: administrators with write on the Warehouse module.
  const canWrite = useMayAccess()({ roles: ADMIN_ROLES, module: { key: 'Warehouse', permission: 'write' } });
  const drawer = useFormDrawer<Warehouse>();
  const { data: filters } = useGetWarehouseFiltersLabelsQuery();

  const columns = useCallback(
    (data: WarehouseList | undefined): ColumnsType<Warehouse> => {
      const shown: ColumnsType<Warehouse> = (data?.columns ?? DEFAULT_COLUMNS).map((c) => {
        const id = `warehouse.fields.${c.key}`;
        return {
          key: c.key,
          dataIndex: c.key,
          title: intl.messages[id] ? t(id) : c.title,
          sorter: c.sortable,
          align: c.key === 'capacity' ? ('right' as const) : undefined,
          render: (value: unknown) =>
            c.key === 'isActive' ? <StatusTag active={Boolean(value)} />
              : c.key === 'capacity' ? intl.formatNumber(Number(value))
              : (value as string | null) ?? '—',
        };
      });
      if (!canWrite) return shown;
      return [
        ...shown,
        {
          key: 'actions',
          title: t('table.actions'),
          fixed: 'right' as const,
          render: (_: unknown, row: Warehouse) => (
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => drawer.openEdit(row)} aria-label={`${t('table.edit')} ${row.warehouseName}`}>
              {t('table.edit')}
            </Button>
          ),
        },
      ];
    },
    // drawer.openEdit is a fresh function each render but only sets state; the list does not need to follow it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [intl, t, canWrite],
  );

  return (
    <DataTablePage<Warehouse, WarehouseList>
      title={t('warehouse.title')}
      subtitle={t('warehouse.subtitle')}
      rowKey="warehouseId"
      columns={columns}
      useList={useGetWarehouseListQuery}
      filters={filters}
      searchPlaceholder={t('warehouse.searchPlaceholder')}
      excel={{ url: 'Warehouse/Warehouse/DownloadWarehouseExcel', fileName: 'warehouses.xlsx' }}
      onAdd={canWrite ? drawer.openCreate : undefined}
      addLabel={t('warehouse.add')}
    >
      <WarehouseFormDrawer open={drawer.open} warehouse={drawer.editing} onClose={drawer.close} />
    </DataTablePage>
  );
}
