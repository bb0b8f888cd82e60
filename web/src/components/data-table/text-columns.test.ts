import { describe, expect, it } from 'vitest';
import type { ColumnsType } from 'antd/es/table';
import { markTextColumns, TEXT_COLUMN_CLASS } from './text-columns';

type Row = { warehouseName: string; skuCode: string; expiryDate: string; onHand: number; notes: string | null };
const rows: Row[] = [
  { warehouseName: 'Newark Fulfillment Center', skuCode: 'BHC-1004', expiryDate: '2026-12-15', onHand: 188, notes: null },
  { warehouseName: 'Dallas', skuCode: 'EVN-1028', expiryDate: '2026-12-16', onHand: 13, notes: 'kept  ' },
];
const columns: ColumnsType<Row> = [
  { key: 'warehouseName', dataIndex: 'warehouseName', className: 'own' },
  { key: 'skuCode', dataIndex: 'skuCode' },
  { key: 'expiryDate', dataIndex: 'expiryDate' },
  { key: 'onHand', dataIndex: 'onHand' },
  { key: 'notes', dataIndex: 'notes' },
  { key: 'actions', render: () => 'Move' },
];

describe('markTextColumns', () => {
  it('lets the columns of names wrap, keeping their own class', () => {
    expect(markTextColumns(columns, rows)[0].className).toBe(`own ${TEXT_COLUMN_CLASS}`);
  });

  it('keeps codes, dates, numbers, padded values and rendered columns on one line', () => {
    expect(markTextColumns(columns, rows).slice(1).map((c) => c.className)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('marks nothing before the rows are in', () => {
    expect(markTextColumns(columns, []).map((c) => c.className)).toEqual(['own', undefined, undefined, undefined, undefined, undefined]);
  });
});
