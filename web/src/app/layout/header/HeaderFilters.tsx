import { Select } from 'antd';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { warehouseSelected } from '../../../lib/state/auth-slice';
import { customerCleared, customerSelected } from '../../../lib/state/header-slice';
import { canClear, customersOfWarehouse, warehouseOptions, withAllOption } from '../../../lib/state/header-filters';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { isAdministrator } from '../../../lib/access';
import { useT } from '../../../lib/i18n/use-t';

/** Spec section 9: filter lists scroll beyond 7 options, at most 200px high. */
const LIST_HEIGHT = 200;

/** The warehouse and customer filters of the header (rules in header-filters.ts). */
export function HeaderFilters({ vertical = false }: { vertical?: boolean }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const data = useAppSelector((s) => s.header.data);
  const loading = useAppSelector((s) => s.header.loading);
  const usertype = useAppSelector((s) => s.auth.usertype);
  const warehouseId = useAppSelector(selectWarehouseId);
  const customerId = useAppSelector((s) => s.header.clientsSelectedIDs);

  const warehouses = warehouseOptions(
    data?.warehouseData ?? [],
    warehouseId,
    t('header.filters.allWarehouses'),
    isAdministrator(usertype),
  );
  const customers = customersOfWarehouse(data?.customerData ?? [], warehouseId);
  const customerOptions = withAllOption(customers, t('header.filters.all'));
  const warehouseLabel = t('header.filters.warehouse');
  const customerLabel = t('header.filters.customer');

  return (
    <div className={vertical ? 'bolx-filters bolx-filters--vertical' : 'bolx-filters'}>
      <Select
        className="bolx-filters__select"
        aria-label={warehouseLabel}
        prefix={<span className="bolx-filters__prefix">{warehouseLabel}</span>}
        value={warehouseId ?? undefined}
        options={warehouses}
        loading={loading}
        showSearch
        optionFilterProp="label"
        placeholder={t('header.filters.search', { placeholder: warehouseLabel })}
        listHeight={LIST_HEIGHT}
        popupMatchSelectWidth={false}
        onChange={(id: number) => dispatch(warehouseSelected(id))}
      />
      <Select
        className="bolx-filters__select"
        aria-label={customerLabel}
        prefix={<span className="bolx-filters__prefix">{customerLabel}</span>}
        value={customerOptions.length ? customerId : undefined}
        options={customerOptions}
        loading={loading}
        showSearch
        optionFilterProp="label"
        placeholder={t('header.filters.search', { placeholder: customerLabel })}
        listHeight={LIST_HEIGHT}
        popupMatchSelectWidth={false}
        allowClear={canClear(customers, customerId)}
        onClear={() => dispatch(customerCleared())}
        onChange={(id: number | undefined) => {
          if (id === undefined) return;
          dispatch(customerSelected({ id, name: customerOptions.find((o) => o.value === id)?.label ?? '' }));
        }}
      />
    </div>
  );
}
