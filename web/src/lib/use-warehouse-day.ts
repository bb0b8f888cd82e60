import { businessDay } from '@bolx/contracts';
import { useAppSelector } from './hooks';
import { selectWarehouseTimeZone } from './state/selectors';

/**
 * Today as the header warehouse counts it (its time zone; the browser's own with all warehouses chosen): the day the
 * server files a charge, a receipt or a billing period under, so a form's default day is never a UTC day ahead.
 */
export function useWarehouseDay(): string {
  const zone = useAppSelector(selectWarehouseTimeZone);
  return businessDay(zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}
