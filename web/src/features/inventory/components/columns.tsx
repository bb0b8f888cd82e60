import type { ColumnsType } from 'antd/es/table';
import type { Translate } from '../../../lib/i18n/use-t';

interface PlaceRow { warehouseName: string; customerName: string; skuCode: string; locationCode: string; lot: string; pallet: string }

/** The columns naming a stock place: warehouse, client, SKU, location, lot, pallet. */
export function stockPlaceColumns<T extends PlaceRow>(t: Translate, o: { sortable?: boolean } = {}): ColumnsType<T> {
  const dash = (v: string) => v || '—';
  return [
    { key: 'warehouseName', dataIndex: 'warehouseName', title: t('inventory.fields.warehouse'), sorter: o.sortable },
    { key: 'customerName', dataIndex: 'customerName', title: t('inventory.fields.customer'), sorter: o.sortable },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inventory.fields.sku'), sorter: o.sortable },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inventory.fields.location'), sorter: o.sortable },
    { key: 'lot', dataIndex: 'lot', title: t('inventory.fields.lot'), render: dash },
    { key: 'pallet', dataIndex: 'pallet', title: t('inventory.fields.pallet'), render: dash },
  ];
}
