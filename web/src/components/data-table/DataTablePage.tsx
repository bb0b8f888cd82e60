import { useCallback, useEffect, useMemo, useReducer, useRef, type Key, type ReactNode } from 'react';
import { Alert, Button, Card, Empty, Skeleton, Space, Table, Typography, type TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import type { FilterLabel } from '@bolx/contracts';
import { useT } from '../../lib/i18n/use-t';
import { useDownload } from '../download/use-download';
import type { DownloadRequest } from '../../lib/api/download';
import { FilterBar } from './FilterBar';
import { BatchBar } from './BatchBar';
import { NO_SELECTION, batchReducer, batchTarget, matchingKey, type BatchAction, type BatchSelection } from './batch-selection';
import { PAGE_SIZE_OPTIONS, pageRange, type FilterValue, type FilterValues, type ListPage, type ListRequest, type SortOrder } from './list-args';
import { useListState, type ListStateOptions } from './use-list-state';
import { markTextColumns } from './text-columns';
import './data-table.css';

/** Spec section 2/3: the loading placeholder is 10 rows. */
export const PLACEHOLDER_ROWS = 10;

/** What DataTablePage needs of an RTK Query list hook (`useGetUsersQuery` fits as is). */
export interface ListQueryResult<T, D extends ListPage<T> = ListPage<T>> {
  data?: D;
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}
export type ListQueryHook<T, D extends ListPage<T> = ListPage<T>> = (args: ListRequest, options?: { skip?: boolean }) => ListQueryResult<T, D>;

export interface ExcelDownload {
  /** The …Download…Excel path; it gets the list's current body (filters, search, sort). */
  url: string;
  /** Used when the server sends no file name. */
  fileName: string;
  method?: 'POST' | 'GET';
}

export interface DataTablePageProps<T extends object, D extends ListPage<T> = ListPage<T>> extends ListStateOptions {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Skeleton rows while the first page loads (default PLACEHOLDER_ROWS; the RMA screen's is 5). */
  placeholderRows?: number;
  /**
   * antd columns; give each a `key` — a column with `sorter: true` is sorted by the server under that key. A
   * function gets the last answer (for lists whose columns come from the server) — undefined while loading.
   */
  columns: ColumnsType<T> | ((data: D | undefined) => ColumnsType<T>);
  rowKey: string | ((row: T) => Key);
  /** The RTK Query list hook of the screen's `features/<area>/<area>-api.ts`. */
  useList: ListQueryHook<T, D>;
  /**
   * The filter bar's filters, e.g. the data of a `…FiltersLabels` query; as a function it gets the filters set
   * now (one filter's options that depend on another's value: a client's carriers).
   */
  filters?: FilterLabel[] | ((values: FilterValues) => FilterLabel[]);
  /** The search box reads 'Search {searchPlaceholder}'; no search box without it. */
  searchPlaceholder?: string;
  excel?: ExcelDownload;
  /** Shows the Add button. */
  onAdd?: () => void;
  addLabel?: string;
  /** More buttons in the title bar, before Excel and Add. */
  actions?: ReactNode;
  /** Skip the list call (e.g. until a header selection exists). */
  skip?: boolean;
  /** Anything else antd's Table takes (rowSelection, expandable, onRow, scroll…). */
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'pagination' | 'onChange' | 'rowKey' | 'loading' | 'locale'>;
  /** Drawers and modals of the screen. */
  children?: ReactNode;
  /**
   * Content between the title bar and the table (e.g. the tabs of a screen with several lists); as a function it
   * gets the list's controls (a scan box that filters the list).
   */
  toolbar?: ReactNode | ((list: ListControls) => ReactNode);
  /**
   * Batch actions: the table gets row selection (kept across pages, dropped when the filters or search change),
   * and each action runs on the picked rows or, when it says so, on every row matching the filters.
   */
  batchActions?: BatchAction<T>[];
}

/** What a toolbar may do to the list: set or clear a filter, search. */
export interface ListControls {
  filters: Record<string, FilterValue | undefined>;
  searchQuery: string;
  setFilter: (key: string, value: FilterValue | undefined) => void;
  search: (query: string) => void;
}

/**
 * The one list screen: title bar (actions, Add, Excel of the filtered list), filter bar with 'Search {placeholder}',
 * and a server-paged, server-sorted table of 10 rows a page with '/ page', 'No Record Found' and a 10-row
 * loading placeholder, following the header's warehouse and customer.
 */
export function DataTablePage<T extends object, D extends ListPage<T> = ListPage<T>>(props: DataTablePageProps<T, D>) {
  const { title, subtitle, columns: columnsProp, rowKey, useList, filters: filtersProp = [], searchPlaceholder, excel, onAdd, addLabel, actions, skip, tableProps, children, toolbar, batchActions } = props;
  const t = useT();
  const { state, dispatch, args } = useListState({ scopeFilters: props.scopeFilters, initial: props.initial });
  const { data, isLoading, isFetching, isError, refetch } = useList(args, { skip });
  const [download, downloading] = useDownload();
  const columns = useMemo(() => (typeof columnsProp === 'function' ? columnsProp(data) : columnsProp), [columnsProp, data]);
  const filters = typeof filtersProp === 'function' ? filtersProp(state.filters) : filtersProp;

  const onSearch = useCallback((searchQuery: string) => dispatch({ type: 'search', searchQuery }), [dispatch]);
  const onFilter = useCallback((key: string, value: FilterValue | undefined) => dispatch({ type: 'filter', key, value }), [dispatch]);
  const controls: ListControls = { filters: state.filters, searchQuery: state.searchQuery, setFilter: onFilter, search: onSearch };

  // Batch selection: dropped whenever the rows the filters match change (not on paging or sorting).
  const [selection, select] = useReducer(batchReducer<T>, NO_SELECTION as BatchSelection<T>);
  const matching = matchingKey(args);
  const lastMatching = useRef(matching);
  useEffect(() => {
    if (lastMatching.current === matching) return;
    lastMatching.current = matching;
    select({ type: 'clear' });
  }, [matching]);

  // Controlled sort arrows, so the table always shows the order the server was asked for.
  // Names and descriptions may wrap, so the columns fit beside the sticky Actions column (text-columns.ts).
  const shownColumns = useMemo(
    () =>
      markTextColumns(columns, data?.items ?? []).map((column) =>
        column.sorter ? { ...column, sortOrder: state.sort && state.sort.field === column.key ? state.sort.order : null } : column,
      ),
    [columns, data, state.sort],
  );

  const placeholder = isLoading && !data;
  const placeholderRows = useMemo(
    () => Array.from({ length: props.placeholderRows ?? PLACEHOLDER_ROWS }, (_, i) => ({ __placeholder: i }) as unknown as T),
    [props.placeholderRows],
  );
  const placeholderColumns = useMemo(
    () =>
      columns.map((column) => ({
        ...column,
        render: () => <Skeleton.Input active size="small" block className="bolx-table__placeholder" />,
      })) as ColumnsType<T>,
    [columns],
  );

  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
      dispatch({ type: 'sort', field: s?.columnKey !== undefined ? String(s.columnKey) : undefined, order: (s?.order ?? null) as SortOrder | null });
      return;
    }
    if (extra.action === 'paginate') {
      dispatch({ type: 'page', page: pagination.current ?? 1, pageSize: pagination.pageSize ?? state.pageSize });
    }
  };

  const onExcel = () => {
    if (!excel) return;
    const method = excel.method ?? 'POST';
    const request: DownloadRequest = method === 'POST' ? { url: excel.url, method, body: args } : { url: excel.url, method, params: flatParams(args) };
    void download(request, excel.fileName);
  };

  const total = data?.totalCount ?? 0;

  return (
    <div className="bolx-page bolx-table-page">
      <div className="bolx-table__titlebar">
        <div className="bolx-table__title">
          <Typography.Title level={3}>{title}</Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        <Space wrap className="bolx-table__actions">
          {actions}
          {excel && (
            <Button icon={<DownloadOutlined />} loading={downloading} onClick={onExcel} disabled={placeholder || total === 0}>
              {t('table.downloadExcel')}
            </Button>
          )}
          {onAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
              {addLabel ?? t('table.add')}
            </Button>
          )}
        </Space>
      </div>
      {typeof toolbar === 'function' ? toolbar(controls) : toolbar}
      <Card className="bolx-table__card" styles={{ body: { padding: 0 } }}>
        {(filters.length > 0 || searchPlaceholder !== undefined) && (
          <FilterBar
            filters={filters}
            values={state.filters}
            onFilter={onFilter}
            searchPlaceholder={searchPlaceholder}
            searchQuery={state.searchQuery}
            onSearch={onSearch}
            onClear={() => dispatch({ type: 'clearFilters' })}
          />
        )}
        {isError && !isFetching && (
          <Alert
            className="bolx-table__error"
            type="error"
            showIcon
            message={t('table.loadError')}
            action={<Button size="small" onClick={() => refetch()}>{t('table.retry')}</Button>}
          />
        )}
        {batchActions && batchActions.length > 0 && !placeholder && (
          <BatchBar<T>
            actions={batchActions}
            selection={selection}
            target={batchTarget(selection, args, total)}
            total={total}
            pageRows={data?.items.length ?? 0}
            onAllMatching={() => select({ type: 'allMatching' })}
            onClear={() => select({ type: 'clear' })}
          />
        )}
        <Table<T>
          {...tableProps}
          rowSelection={batchActions && batchActions.length > 0 && !placeholder ? {
            preserveSelectedRowKeys: true,
            // Every matching row is selected: the page shows all its rows ticked.
            selectedRowKeys: selection.mode === 'allMatching' ? (data?.items ?? []).map((row) => keyOf(rowKey, row)) : selection.keys,
            onChange: (keys, rows) => select({ type: 'pick', keys, rows }),
          } : tableProps?.rowSelection}
          className="bolx-table"
          size="middle"
          // The table fits its card where it can (text columns wrap) and scrolls inside the card where it cannot;
          // 'auto' layout, since with a fixed column antd would otherwise share the width out equally.
          scroll={tableProps?.scroll ?? { x: true }}
          tableLayout={tableProps?.tableLayout ?? 'auto'}
          rowKey={placeholder ? (row) => String((row as { __placeholder?: number }).__placeholder) : rowKey}
          columns={placeholder ? placeholderColumns : shownColumns}
          dataSource={placeholder ? placeholderRows : (data?.items ?? [])}
          loading={!placeholder && isFetching}
          onChange={onChange}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('table.noRecord')} /> }}
          pagination={{
            current: state.currentPage,
            pageSize: state.pageSize,
            total,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZE_OPTIONS,
            locale: { items_per_page: t('table.perPage') },
            showTotal: (count) => {
              const [from, to] = pageRange(state.currentPage, state.pageSize, count);
              return t('table.total', { from, to, total: count });
            },
            hideOnSinglePage: false,
            disabled: placeholder,
          }}
        />
      </Card>
      {children}
    </div>
  );
}

const keyOf = <T,>(rowKey: string | ((row: T) => Key), row: T): Key =>
  typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, unknown>)[rowKey] as Key);

/** A GET download gets the list's body as flat query parameters. */
function flatParams(args: ListRequest): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = { searchQuery: args.searchQuery, pageNumber: args.pageNumber, pageSize: args.pageSize };
  for (const [k, v] of Object.entries(args.filters)) if (v !== undefined) out[k] = v as string | number | boolean;
  if (args.sort) {
    out.sortField = args.sort.field;
    out.sortOrder = args.sort.order;
  }
  return out;
}
