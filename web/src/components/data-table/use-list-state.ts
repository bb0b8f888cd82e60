import { useEffect, useMemo, useReducer, useRef } from 'react';
import { useAppSelector } from '../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../lib/state/selectors';
import { buildListArgs, initialTableState, tableReducer, type FilterValues, type HeaderScope, type TableState } from './list-args';

export interface ListStateOptions {
  /** Filters the header's warehouse/customer imply (e.g. `warehouseScope`); none by default. */
  scopeFilters?: (scope: HeaderScope) => FilterValues;
  initial?: Partial<TableState>;
}

/**
 * One list screen's state (page, size, search, filters, sort) and the list call's body built from it and the
 * header's selection. A change of the header's warehouse or customer goes back to page 1.
 */
export function useListState({ scopeFilters, initial }: ListStateOptions = {}) {
  const [state, dispatch] = useReducer(tableReducer, initial, (i) => initialTableState(i));
  const warehouseId = useAppSelector(selectWarehouseId);
  const customerId = useAppSelector(selectCustomerId);

  const scopeKey = `${warehouseId ?? 0}:${customerId}`;
  const previousScope = useRef(scopeKey);
  useEffect(() => {
    if (previousScope.current === scopeKey) return;
    previousScope.current = scopeKey;
    dispatch({ type: 'scopeChanged' });
  }, [scopeKey]);

  const scopeFn = useRef(scopeFilters);
  scopeFn.current = scopeFilters;
  const args = useMemo(
    () => buildListArgs(state, scopeFn.current?.({ warehouseId, customerId }) ?? {}),
    [state, warehouseId, customerId],
  );
  return { state, dispatch, args, scope: { warehouseId, customerId } as HeaderScope };
}
