import type { FilterLabel } from '@bolx/contracts';
import type { ListRequest } from '../../components/data-table/list-args';
import type { DimensionListRequest, SkuListRequest } from './skus-api';

/** The filter bar's boolean control already sends a boolean (see booleanFilterValue); anything else is not a choice. */
const asBoolean = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const asNumber = (v: unknown) => (v === undefined || v === null || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v));
const asString = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The shared table's list body → GetAllSkus' body, with each filter in the type the server's schema takes. */
export function toSkuListRequest(args: ListRequest): SkuListRequest {
  const f = args.filters as Record<string, unknown>;
  const isActive = asString(f.isActive) as 'all' | 'active' | 'inactive' | undefined;
  return {
    ...args,
    filters: dropUndefined({ customerId: asNumber(f.customerId), category: asString(f.category), isKit: asBoolean(f.isKit), isActive }),
  };
}

/** The shared table's list body → GetDimensions' body. */
export function toDimensionListRequest(args: ListRequest): DimensionListRequest {
  const f = args.filters as Record<string, unknown>;
  const kind = asString(f.kind) as 'all' | 'sku' | 'package' | undefined;
  return { ...args, filters: dropUndefined({ customerId: asNumber(f.customerId), kind, missingOnly: asBoolean(f.missingOnly) }) };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The header's client (0 = ALL) narrows the SKU lists to that client. */
export const customerScope = ({ customerId }: { customerId: number }) => (customerId ? { customerId } : {});

/** A client filter with a single client (a Client account) chooses nothing: it is left out of the filter bar. */
export const withoutSingleChoice = (filters: FilterLabel[]) =>
  filters.filter((f) => !(f.key === 'customerId' && (f.options?.length ?? 0) <= 1));
