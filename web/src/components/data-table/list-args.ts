import { DEFAULT_PAGE_SIZE, FIRST_PAGE } from '@bolx/contracts';

/**
 * The state of one list screen (spec section 3, Table state: pagination {currentPage 1, pageSize 10}) and how it
 * becomes the body of a `POST …/GetX` list call ({filters, searchQuery, pageNumber, pageSize, sort}).
 * Plain functions and a reducer, so paging rules are unit-tested without React.
 */
export type SortOrder = 'ascend' | 'descend';
export type FilterValue = string | number | boolean;
export type FilterValues = Record<string, FilterValue | undefined>;

export interface ListRequest<F extends object = FilterValues> {
  filters: Partial<F>;
  searchQuery: string;
  pageNumber: number;
  pageSize: number;
  sort?: { field: string; order: SortOrder };
}

export interface ListPage<T> {
  items: T[];
  totalCount: number;
}

export interface TableState {
  currentPage: number;
  pageSize: number;
  searchQuery: string;
  filters: FilterValues;
  sort?: { field: string; order: SortOrder };
}

/** The header's selection (warehouse 0 or null = all; customer 0 = ALL). */
export interface HeaderScope {
  warehouseId: number | null;
  customerId: number;
}

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

export const initialTableState = (overrides: Partial<TableState> = {}): TableState => ({
  currentPage: FIRST_PAGE,
  pageSize: DEFAULT_PAGE_SIZE,
  searchQuery: '',
  filters: {},
  ...overrides,
});

export type TableAction =
  | { type: 'page'; page: number; pageSize: number }
  | { type: 'search'; searchQuery: string }
  | { type: 'filter'; key: string; value: FilterValue | undefined }
  | { type: 'clearFilters' }
  | { type: 'sort'; field?: string; order?: SortOrder | null }
  | { type: 'scopeChanged' };

/** Anything that changes which rows match goes back to page 1; a new page size also does. */
export function tableReducer(state: TableState, action: TableAction): TableState {
  switch (action.type) {
    case 'page':
      return action.pageSize !== state.pageSize
        ? { ...state, currentPage: FIRST_PAGE, pageSize: action.pageSize }
        : { ...state, currentPage: Math.max(FIRST_PAGE, action.page) };
    case 'search': {
      const searchQuery = action.searchQuery.trim();
      return searchQuery === state.searchQuery ? state : { ...state, searchQuery, currentPage: FIRST_PAGE };
    }
    case 'filter':
      return { ...state, filters: { ...state.filters, [action.key]: action.value }, currentPage: FIRST_PAGE };
    case 'clearFilters':
      return { ...state, filters: {}, searchQuery: '', currentPage: FIRST_PAGE };
    case 'sort':
      return {
        ...state,
        sort: action.field && action.order ? { field: action.field, order: action.order } : undefined,
        currentPage: FIRST_PAGE,
      };
    case 'scopeChanged':
      return state.currentPage === FIRST_PAGE ? state : { ...state, currentPage: FIRST_PAGE };
  }
}

const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * A 'boolean' filter's control is a Select, whose option values are strings; the list body carries the JSON
 * boolean every list's yes/no filter takes. These two convert at the control, so no screen has to.
 */
export const booleanFilterValue = (option: string | number | undefined): boolean | undefined =>
  option === 'true' ? true : option === 'false' ? false : undefined;
export const booleanFilterOption = (value: FilterValue | undefined): 'true' | 'false' | undefined =>
  value === true ? 'true' : value === false ? 'false' : undefined;

/** Drops unset filter values so the server's optional filters stay absent. */
export function cleanFilters(filters: FilterValues): FilterValues {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => isSet(v)));
}

/** Scope filters of the usual kind: the header's warehouse as `warehouseId`, skipped when it is "all" (0/null). */
export function warehouseScope(scope: HeaderScope): FilterValues {
  return scope.warehouseId ? { warehouseId: scope.warehouseId } : {};
}

/** The header's warehouse as `warehouseId` and customer as `customerId`, each skipped when it is "all". */
export function warehouseAndCustomerScope(scope: HeaderScope): FilterValues {
  return { ...warehouseScope(scope), ...(scope.customerId ? { customerId: scope.customerId } : {}) };
}

/**
 * The list call's body. Filters the user picked win over those the header implies, so a screen can offer a
 * warehouse filter of its own.
 */
export function buildListArgs(
  state: TableState,
  scopeFilters: FilterValues = {},
): ListRequest {
  const filters = cleanFilters({ ...scopeFilters, ...state.filters });
  return {
    filters,
    searchQuery: state.searchQuery,
    pageNumber: state.currentPage,
    pageSize: state.pageSize,
    ...(state.sort ? { sort: state.sort } : {}),
  };
}

/** "1-10 of 42": the first and last row numbers the page shows. */
export function pageRange(currentPage: number, pageSize: number, totalCount: number): [number, number] {
  if (totalCount <= 0) return [0, 0];
  const from = (currentPage - 1) * pageSize + 1;
  return [Math.min(from, totalCount), Math.min(currentPage * pageSize, totalCount)];
}

/** After a delete empties the last page, the page to go back to. */
export function lastValidPage(currentPage: number, pageSize: number, totalCount: number): number {
  const last = Math.max(FIRST_PAGE, Math.ceil(totalCount / pageSize));
  return Math.min(currentPage, last);
}
