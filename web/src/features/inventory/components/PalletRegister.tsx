import type { ColumnsType } from 'antd/es/table';
import { PALLET_TYPES, type FilterLabel, type Pallet } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import { useT } from '../../../lib/i18n/use-t';
import { useGetPalletRegisterQuery } from '../pallet-register-api';

const size = (p: Pallet) => `${p.lengthCm} × ${p.widthCm} × ${p.heightCm}`;

/** The registered pallets: type, size, weight capacity, where each is and what is on it (Add Data's Pallets card fills it). */
export function PalletRegister({ toolbar }: { toolbar: React.ReactNode }) {
  const t = useT();
  const filters: FilterLabel[] = [
    { key: 'palletType', label: t('inventory.pallet.type'), type: 'select', options: PALLET_TYPES.map((p) => ({ value: p, label: t(`inventory.pallet.types.${p}`) })) },
  ];
  const columns: ColumnsType<Pallet> = [
    { key: 'palletId', dataIndex: 'palletId', title: t('inventory.fields.pallet'), sorter: true },
    { key: 'palletType', dataIndex: 'palletType', title: t('inventory.pallet.type'), sorter: true, render: (v: string) => t(`inventory.pallet.types.${v}`) },
    { key: 'size', title: t('inventory.pallet.dimensions'), render: (_: unknown, p) => size(p) },
    { key: 'weightCapacityKg', dataIndex: 'weightCapacityKg', title: t('inventory.pallet.weightCapacity'), align: 'right' },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inventory.pallet.currentLocation'), sorter: true },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer'), sorter: true, render: (v: string | null) => v ?? '—' },
    { key: 'sscc', dataIndex: 'sscc', title: 'SSCC', render: (v: string | null) => v ?? '—' },
    { key: 'onHand', dataIndex: 'onHand', title: t('inventory.fields.onHand'), align: 'right' },
  ];
  return (
    <DataTablePage<Pallet>
      key="pallet-register"
      title={t('inventory.pallet.register')}
      subtitle={t('inventory.pallet.registerSubtitle')}
      rowKey="uniqueid"
      columns={columns}
      useList={useGetPalletRegisterQuery}
      filters={filters}
      searchPlaceholder={t('inventory.pallet.registerSearch')}
      scopeFilters={warehouseAndCustomerScope}
      toolbar={toolbar}
    />
  );
}
