import { useMemo } from 'react';
import { Button, Tag, Typography } from 'antd';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import { SHORT_REASONS, type BackorderLine, type FilterLabel } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseAndCustomerScope } from '../../../components/data-table/list-args';
import type { BatchAction } from '../../../components/data-table/batch-selection';
import { StatusTag } from '../../../components/StatusTag';
import { useT } from '../../../lib/i18n/use-t';
import { useOrderActor } from '../components/use-order-actor';
import { useOrderMoves, type MoveTarget } from '../components/use-order-moves';
import { mayMakeMove } from '../order-model';
import { useGetBackordersQuery } from '../orders-api';

/** The orders of some backorder lines, once each (a batch allocates whole orders). */
export function ordersOfLines(lines: BackorderLine[]): MoveTarget[] {
  const seen = new Map<number, MoveTarget>();
  for (const l of lines) if (!seen.has(l.orderId)) seen.set(l.orderId, { orderId: l.orderId, soNumber: l.soNumber, status: l.status });
  return [...seen.values()];
}

/**
 * /BKO: every order line waiting for stock, with what it lacks, what is free of its SKU now, how long it has
 * waited and why; Allocate on the selected lines' orders, or on one line's order from its row.
 */
export default function BackordersPage() {
  const t = useT();
  const intl = useIntl();
  const who = useOrderActor();
  const moves = useOrderMoves();
  const canAllocate = mayMakeMove('allocate', who);

  const columns = useMemo<ColumnsType<BackorderLine>>(() => {
    const n = (v: number) => intl.formatNumber(v);
    return [
      {
        key: 'soNumber', title: t('outbound.col.order'), sorter: true, fixed: 'left',
        render: (_, l) => <div className="bolx-order-two-lines"><Typography.Text strong>{l.soNumber}</Typography.Text><div><StatusTag kind="SALES_ORDER" status={l.status} /></div></div>,
      },
      { key: 'referenceNumber', dataIndex: 'referenceNumber', title: t('outbound.col.referenceNumber'), sorter: true },
      {
        key: 'customerName', title: t('outbound.col.customerWarehouse'), sorter: true,
        render: (_, l) => <div className="bolx-order-two-lines"><div>{l.customerName}</div><Typography.Text type="secondary">{l.warehouseName}</Typography.Text></div>,
      },
      {
        key: 'skuCode', title: t('outbound.col.sku'), sorter: true,
        render: (_, l) => <div className="bolx-order-two-lines"><Typography.Text strong>{l.skuCode}</Typography.Text><div><Typography.Text type="secondary" className="bolx-order-line__desc">{l.skuDescription}</Typography.Text></div></div>,
      },
      { key: 'quantity', dataIndex: 'quantity', title: t('outbound.col.ordered'), align: 'right', render: n },
      { key: 'allocatedQuantity', dataIndex: 'allocatedQuantity', title: t('outbound.col.allocated'), align: 'right', render: n },
      { key: 'shortQuantity', dataIndex: 'shortQuantity', title: t('outbound.col.short'), align: 'right', sorter: true, render: (v: number) => <Typography.Text type="warning" strong>{n(v)}</Typography.Text> },
      {
        key: 'freeNow', dataIndex: 'freeNow', title: t('outbound.col.freeNow'), align: 'right', sorter: true,
        render: (v: number) => (v > 0 ? <Typography.Text type="success" strong>{n(v)}</Typography.Text> : n(v)),
      },
      { key: 'ageDays', dataIndex: 'ageDays', title: t('outbound.col.age'), align: 'right', sorter: true, render: (days: number) => t('outbound.ageDays', { days }) },
      {
        key: 'shortReason', dataIndex: 'shortReason', title: t('outbound.col.reason'),
        render: (r: BackorderLine['shortReason']) => (r ? <Tag color="orange" data-reason={r}>{t(`outbound.short.${r}`)}</Tag> : '—'),
      },
      ...(canAllocate ? [{
        key: 'actions', title: t('table.actions'), fixed: 'right' as const,
        render: (_: unknown, l: BackorderLine) => <Button type="link" size="small" disabled={moves.busy} onClick={() => moves.run('allocate', ordersOfLines([l]))}>{t('outbound.action.allocate')}</Button>,
      }] : []),
    ];
  }, [t, intl, canAllocate, moves]);

  const filters: FilterLabel[] = [
    { key: 'shortReason', label: t('outbound.filter.shortReason'), type: 'select', options: SHORT_REASONS.map((r) => ({ label: t(`outbound.short.${r}`), value: r })) },
  ];
  const allocate: BatchAction<BackorderLine> = {
    key: 'allocate',
    label: t('outbound.action.allocate'),
    run: (target) => target.kind === 'rows' && moves.run('allocate', ordersOfLines(target.rows)),
  };

  return (
    <DataTablePage<BackorderLine>
      title={t('routes.BKO')}
      subtitle={t('outbound.bko.subtitle')}
      rowKey="lineId"
      columns={columns}
      useList={useGetBackordersQuery}
      filters={filters}
      searchPlaceholder={t('outbound.bko.searchPlaceholder')}
      scopeFilters={warehouseAndCustomerScope}
      batchActions={canAllocate ? [allocate] : undefined}
    >
      {moves.modal}
    </DataTablePage>
  );
}
