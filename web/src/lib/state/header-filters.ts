import type { HeaderCustomer, HeaderWarehouse } from '@bolx/contracts';

/**
 * Spec section 4, Header filters, as pure functions.
 * Warehouse filter: every change is pushed, the default is the stored warehouse, no ALL option, no clear.
 * Other filters (customer): 0 means ALL; more than one item adds ALL and selects 0; exactly one item is
 * auto-selected; no items resets to 0; the clear icon resets to ALL.
 */
export const ALL = 0;

export interface FilterOption {
  value: number;
  label: string;
}

/** The stored warehouse value as a number, or null when it is missing or not numeric. */
export function parseWarehouseId(stored: string | null | undefined): number | null {
  if (stored === null || stored === undefined || stored.trim() === '') return null;
  const n = Number(stored);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/** The header filters show only with a selected service and a numeric warehouse value. */
export function showHeaderFilters(service: string | null, storedWarehouse: string | null): boolean {
  return Boolean(service) && parseWarehouseId(storedWarehouse) !== null;
}

/**
 * Warehouse options: the user's warehouses, never an added ALL. Warehouse 0 ("all warehouses") is listed only
 * where it is a real selection: it is selected now, or the user is an administrator with several warehouses —
 * the one role the spec gives warehouse 0 (section 6).
 */
export function warehouseOptions(
  warehouses: HeaderWarehouse[],
  selected: number | null,
  allLabel: string,
  administrator: boolean,
): FilterOption[] {
  const options = warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }));
  const offerAll = selected === ALL || (administrator && warehouses.length > 1);
  return offerAll ? [{ value: ALL, label: allLabel }, ...options] : options;
}

/** Customers served from the selected warehouse (warehouse 0: every customer), one option per customer. */
export function customersOfWarehouse(customers: HeaderCustomer[], warehouseId: number | null): FilterOption[] {
  const seen = new Set<number>();
  const out: FilterOption[] = [];
  for (const c of customers) {
    if (warehouseId !== null && warehouseId !== ALL && c.warehouseId !== warehouseId) continue;
    if (seen.has(c.customerId)) continue;
    seen.add(c.customerId);
    out.push({ value: c.customerId, label: c.customerName });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/** Options of a filter with ALL: ALL is added in front when there is more than one item. */
export function withAllOption(items: FilterOption[], allLabel: string): FilterOption[] {
  return items.length > 1 ? [{ value: ALL, label: allLabel }, ...items] : items;
}

/** The value a filter with ALL holds for these items, given what is selected now. */
export function resolveFilterValue(items: FilterOption[], current: number | null | undefined): number {
  if (items.length === 0) return ALL;
  if (items.length === 1) return items[0].value;
  return current !== null && current !== undefined && items.some((i) => i.value === current) ? current : ALL;
}

/** The clear icon is offered only when there is an ALL to go back to and something else is selected. */
export function canClear(items: FilterOption[], value: number): boolean {
  return items.length > 1 && value !== ALL;
}

/** The customer selection after the warehouse or the customer list changed: id and display name. */
export function resolveCustomer(
  customers: HeaderCustomer[],
  warehouseId: number | null,
  currentId: number | null | undefined,
): { id: number; name: string } {
  const items = customersOfWarehouse(customers, warehouseId);
  const id = resolveFilterValue(items, currentId);
  return { id, name: items.find((i) => i.value === id)?.label ?? '' };
}

/**
 * The warehouse selection once the user's warehouse list changed (a live refresh): kept while it is still one of
 * theirs (ALL stays for an administrator). Otherwise the landing rules (spec section 2) choose again: their one
 * warehouse; ALL for an administrator with several; none (null: WarehouseSelection) for other roles.
 * `undefined` means keep.
 */
export function revalidateWarehouse(
  warehouses: readonly { warehouseId: number }[],
  selected: number | null,
  administrator: boolean,
): number | null | undefined {
  if (selected === null) return undefined;
  if (selected === ALL ? administrator : warehouses.some((w) => w.warehouseId === selected)) return undefined;
  if (warehouses.length === 1) return warehouses[0].warehouseId;
  if (administrator && warehouses.length > 1) return ALL;
  return null;
}
