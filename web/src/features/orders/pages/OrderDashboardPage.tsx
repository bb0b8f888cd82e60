import { useMemo, useState } from 'react';
import { Button, Typography } from 'antd';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import type { ColumnsType } from 'antd/es/table';
import {
  ORDER_BATCH_MATCHING_MAX, ORDER_PRIORITY_MAX, ORDER_PRIORITY_MIN, ORDER_TYPES, type FilterLabel, type OrderFilters, type OrderStatus, type OrderSummary,
} from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope, type FilterValues } from '../../../components/data-table/list-args';
import type { BatchAction } from '../../../components/data-table/batch-selection';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { useAppSelector } from '../../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { useT } from '../../../lib/i18n/use-t';
import { useClientOptions } from '../../../lib/use-client-options';
import { OrderDrawer } from '../components/OrderDrawer';
import { OrderFormDrawer } from '../components/OrderFormDrawer';
import { StatusCounts } from '../components/StatusCounts';
import { useOrderActor } from '../components/use-order-actor';
import { useOrderMoves } from '../components/use-order-moves';
import { ORDER_ACTIONS, eligibleOrders, matchingBatch, mayMakeMove, tooManyMatching } from '../order-model';
import { useGetCarrierAccountsQuery, useGetOrdersQuery } from '../orders-api';

/**
 * /OrderDashboard: how many orders are in each status (a click filters the list), the orders with filters and
 * search, bulk moves on the selected ones with their answer, the order drawer, and the order form.
 */
export default function OrderDashboardPage() {
  const t = useT();
  const intl = useIntl();
  const who = useOrderActor();
  const create = useFormDrawer<never>();
  // ?orderId= opens that order's drawer (the invoice audit's source links land here).
  const [params] = useSearchParams();
  const [openId, setOpenId] = useState<number | undefined>(() => Number(params.get('orderId')) || undefined);
  const moves = useOrderMoves();
  const headerWarehouse = useAppSelector(selectWarehouseId);
  const headerCustomer = useAppSelector(selectCustomerId);
  const [carrierCustomer, setCarrierCustomer] = useState<number>();
  const { data: carriers = [] } = useGetCarrierAccountsQuery(carrierCustomer ?? 0, { skip: !carrierCustomer });

  const customerOptions = useClientOptions(headerWarehouse);

  /** The filter bar; the carrier filter lists the carriers of the client chosen (in the header or the filter). */
  const filters = (values: FilterValues): FilterLabel[] => {
    const customerId = headerCustomer || (values.customerId as number | undefined);
    // The list's filter state lives in DataTablePage: the client it names is handed up after this render, to fetch its carriers.
    if ((customerId || undefined) !== carrierCustomer) queueMicrotask(() => setCarrierCustomer(customerId || undefined));
    return [
      ...(headerCustomer || customerOptions.length < 2 ? [] : [{ key: 'customerId', label: t('outbound.filter.customer'), type: 'select' as const, options: customerOptions }]),
      { key: 'orderType', label: t('outbound.filter.orderType'), type: 'select', options: ORDER_TYPES.map((o) => ({ label: t(`outbound.type.${o}`), value: o })) },
      { key: 'priority', label: t('outbound.filter.priority'), type: 'select', options: Array.from({ length: ORDER_PRIORITY_MAX - ORDER_PRIORITY_MIN + 1 }, (_, i) => ({ label: String(i + ORDER_PRIORITY_MIN), value: i + ORDER_PRIORITY_MIN })) },
      ...(customerId ? [{ key: 'carrierAccountId', label: t('outbound.filter.carrier'), type: 'select' as const, options: carriers.map((c) => ({ label: c.accountName, value: c.carrierAccountId })) }] : []),
      { key: 'fromDate', label: t('outbound.filter.fromDate'), type: 'date' },
      { key: 'toDate', label: t('outbound.filter.toDate'), type: 'date' },
    ];
  };

  const columns = useMemo<ColumnsType<OrderSummary>>(() => {
    const n = (v: number) => intl.formatNumber(v);
    const twoLines = (main: string, sub: string | null) => (
      <div className="bolx-order-two-lines"><div>{main}</div><Typography.Text type="secondary">{sub || '—'}</Typography.Text></div>
    );
    return [
      {
        // The order type under the number: most orders are sales orders, and a column of its own pushed the list past a laptop's width.
        key: 'soNumber', title: t('outbound.col.soNumber'), sorter: true, fixed: 'left',
        render: (_, o) => (
          <div className="bolx-order-two-lines">
            <Button type="link" size="small" className="bolx-order-open" onClick={() => setOpenId(o.orderId)}>{o.soNumber}</Button>
            <div><Typography.Text type="secondary">{t(`outbound.type.${o.orderType}`)}</Typography.Text></div>
          </div>
        ),
      },
      { key: 'status', dataIndex: 'status', title: t('outbound.col.status'), sorter: true, render: (s: OrderStatus) => <StatusTag kind="SALES_ORDER" status={s} /> },
      { key: 'referenceNumber', dataIndex: 'referenceNumber', title: t('outbound.col.referenceNumber'), sorter: true },
      { key: 'customerName', title: t('outbound.col.customerWarehouse'), sorter: true, render: (_, o) => twoLines(o.customerName, o.warehouseName) },
      { key: 'orderDate', title: t('outbound.col.orderDate'), sorter: true, render: (_, o) => twoLines(o.orderDate, o.requestedShipDate && `${t('outbound.col.requestedShipDate')} ${o.requestedShipDate}`) },
      { key: 'priority', dataIndex: 'priority', title: t('outbound.col.priority'), sorter: true, align: 'right' },
      { key: 'shipToName', title: t('outbound.col.shipTo'), sorter: true, render: (_, o) => twoLines(o.shipToName ?? '—', [o.shipToCity, o.shipToCountry].filter(Boolean).join(', ')) },
      { key: 'carrier', title: t('outbound.col.carrier'), render: (_, o) => twoLines(o.carrierName ?? '—', o.carrierService) },
      {
        // Allocated over ordered in one column, so the list fits a laptop beside the sticky Actions column.
        key: 'quantities', title: t('outbound.col.allocatedOfOrdered'), align: 'right',
        render: (_, o) => (
          <div className="bolx-order-two-lines">
            <Typography.Text type={o.allocatedQuantity > 0 && o.allocatedQuantity < o.orderedQuantity ? 'warning' : undefined} strong={o.allocatedQuantity > 0 && o.allocatedQuantity < o.orderedQuantity}>
              {`${n(o.allocatedQuantity)} / ${n(o.orderedQuantity)}`}
            </Typography.Text>
            <div><Typography.Text type="secondary">{t('outbound.lineCount', { count: o.lineCount })}</Typography.Text></div>
          </div>
        ),
      },
      { key: 'actions', title: t('table.actions'), fixed: 'right', render: (_, o) => <Button type="link" size="small" onClick={() => setOpenId(o.orderId)}>{t('outbound.open')}</Button> },
    ];
  }, [t, intl]);

  // Bulk moves: those the user may make (the bulk cancel is the warehouse's; a client cancels one order in its drawer).
  const batchActions = ORDER_ACTIONS.filter((a) => mayMakeMove(a, who) && (a !== 'cancel' || who.staff)).map((action): BatchAction<OrderSummary> => ({
    key: action,
    label: t(`outbound.action.${action}`),
    danger: action === 'cancel',
    // Every order the filters match too: the server takes the filters and answers per order.
    allMatching: true,
    disabledReason: (target) => (target.kind === 'rows'
      ? (eligibleOrders(target.rows, action, who).length === 0 ? t('outbound.action.noneEligible') : undefined)
      : (tooManyMatching(target.total) ? t('outbound.action.tooManyMatching', { max: ORDER_BATCH_MATCHING_MAX }) : undefined)),
    run: (target) => (target.kind === 'rows'
      ? moves.run(action, eligibleOrders(target.rows, action, who), target.rows)
      : moves.runMatching(action, matchingBatch(target.request), target.total)),
  }));

  return (
    <DataTablePage<OrderSummary>
      title={t('routes.OrderDashboard')}
      subtitle={t('outbound.subtitle')}
      rowKey="orderId"
      columns={columns}
      useList={useGetOrdersQuery}
      filters={filters}
      searchPlaceholder={t('outbound.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      onAdd={who.canWrite ? create.openCreate : undefined}
      addLabel={t('outbound.add')}
      batchActions={batchActions.length ? batchActions : undefined}
      toolbar={(list) => {
        const { status, ...rest } = list.filters;
        const countFilters = { ...warehouseAndCustomerScope({ warehouseId: headerWarehouse, customerId: headerCustomer }), ...rest } as Omit<OrderFilters, 'status'>;
        return <StatusCounts filters={cleanCountFilters(countFilters)} active={status as OrderStatus | undefined} onPick={(s) => list.setFilter('status', s)} />;
      }}
    >
      <OrderFormDrawer open={create.open} onClose={create.close} clientAccount={who.isClient} onCreated={(id) => setOpenId(id)} />
      <OrderDrawer orderId={openId} who={who} onClose={() => setOpenId(undefined)} onBulk={(action, orders) => moves.run(action, orders)} />
      {moves.modal}
    </DataTablePage>
  );
}

/** The counts take the list's filters but status, with unset ones left out. */
function cleanCountFilters(f: Omit<OrderFilters, 'status'>): Omit<OrderFilters, 'status'> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as Omit<OrderFilters, 'status'>;
}
