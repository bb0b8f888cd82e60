import { useState } from 'react';
import { Button, Tag } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { MoveDrawer } from '../components/MoveDrawer';
import { useGetStockOnHandQuery, type StockRow } from '../inventory-api';
import { useInventoryScope } from '../use-inventory-scope';
import { stockPlaceColumns } from '../components/columns';
import { StockScanBar } from '../components/StockScanBar';

/** /Move: stock on hand for the header's warehouse and customer, each place movable to another location. */
export default function MovePage() {
  const t = useT();
  const { canWrite, warehouseId, customerId } = useInventoryScope('Move');
  const [moving, setMoving] = useState<StockRow>();

  const columns: ColumnsType<StockRow> = [
    ...stockPlaceColumns<StockRow>(t, { sortable: true }),
    { key: 'expiryDate', dataIndex: 'expiryDate', title: t('inventory.fields.expiryDate'), sorter: true, render: (v: string | null) => v ?? '—' },
    { key: 'onHand', dataIndex: 'onHand', title: t('inventory.fields.onHand'), align: 'right', sorter: true },
    { key: 'allocated', dataIndex: 'allocated', title: t('inventory.fields.allocated'), align: 'right' },
    {
      key: 'available', dataIndex: 'available', title: t('inventory.fields.available'), align: 'right',
      render: (v: number) => (v > 0 ? v : <Tag>{v}</Tag>),
    },
    ...(canWrite
      ? [{
          key: 'actions', title: t('table.actions'), fixed: 'right' as const,
          render: (_: unknown, row: StockRow) => (
            <Button type="link" size="small" icon={<SwapOutlined />} disabled={row.available <= 0} onClick={() => setMoving(row)}
              aria-label={`${t('inventory.move.action')} ${row.skuCode} ${row.locationCode}`}>
              {t('inventory.move.action')}
            </Button>
          ),
        }]
      : []),
  ];

  return (
    <DataTablePage<StockRow>
      title={t('routes.Move')}
      subtitle={t('inventory.move.subtitle')}
      rowKey="uniqueid"
      columns={columns}
      useList={useGetStockOnHandQuery}
      searchPlaceholder={t('inventory.move.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      toolbar={(list) => <StockScanBar list={list} warehouseId={warehouseId} customerId={customerId} />}
    >
      <MoveDrawer row={moving} onClose={() => setMoving(undefined)} />
    </DataTablePage>
  );
}
