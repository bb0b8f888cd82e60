import type { ColumnsType } from 'antd/es/table';
import type { FilterLabel } from '@bolx/contracts';
import { Typography } from 'antd';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { stockPlaceColumns } from '../components/columns';
import { StockStatusTag } from '../components/StockStatusTag';
import { useGetExpiringLotsQuery, type ExpiringLot } from '../inventory-api';
import '../inventory.css';

export const EXPIRY_WINDOWS = [7, 14, 30, 60, 90, 180, 365];
export const DEFAULT_EXPIRY_WINDOW = 30;

/** /ProductExpire: lots expiring within N days (N chosen in the filter bar), expired lots flagged first. */
export default function ProductExpirePage() {
  const t = useT();
  const filters: FilterLabel[] = [
    { key: 'days', label: t('inventory.expire.days'), type: 'select', options: EXPIRY_WINDOWS.map((d) => ({ value: d, label: t('inventory.expire.withinDays', { days: d }) })) },
  ];
  const columns: ColumnsType<ExpiringLot> = [
    { key: 'status', dataIndex: 'status', title: t('inventory.fields.status'), render: (v: string) => <StockStatusTag status={v} /> },
    { key: 'expiryDate', dataIndex: 'expiryDate', title: t('inventory.fields.expiryDate') },
    {
      key: 'daysToExpiry', dataIndex: 'daysToExpiry', title: t('inventory.fields.daysToExpiry'), align: 'right',
      render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : v <= 7 ? 'warning' : undefined} strong={v <= 7}>{v}</Typography.Text>,
    },
    ...stockPlaceColumns<ExpiringLot>(t),
    { key: 'skuDescription', dataIndex: 'skuDescription', title: t('inventory.fields.description') },
    { key: 'onHand', dataIndex: 'onHand', title: t('inventory.fields.onHand'), align: 'right' },
    { key: 'allocated', dataIndex: 'allocated', title: t('inventory.fields.allocated'), align: 'right' },
  ];
  return (
    <DataTablePage<ExpiringLot>
      title={t('routes.ProductExpire')}
      subtitle={t('inventory.expire.subtitle')}
      rowKey="uniqueid"
      columns={columns}
      useList={useGetExpiringLotsQuery}
      filters={filters}
      initial={{ filters: { days: DEFAULT_EXPIRY_WINDOW } }}
      searchPlaceholder={t('inventory.expire.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      excel={{ url: 'Warehouse/Inventory/DownloadExpiringLotsExcel', fileName: 'expiring-lots.xlsx' }}
      tableProps={{ rowClassName: (r) => (r.status === 'Expired' ? 'bolx-row--expired' : '') }}
    />
  );
}
