import { sql } from 'kysely';
import type { UnitOfWork } from './unit-of-work.js';

/**
 * How each kind's numbers look. `pad`: digits, zero-padded (0: as they come). `gapFree`: the law wants every
 * number used (invoices) — every number here is taken in the document's own transaction, so a rollback gives it
 * back and the next document takes it; the flag says that a kind must keep it so.
 */
export const NUMBERING = {
  RO: { prefix: 'RO-', pad: 6, gapFree: false },
  CC: { prefix: 'CC-', pad: 6, gapFree: false },
  ADJ: { prefix: 'ADJ-', pad: 0, gapFree: false },
  SO: { prefix: 'SO-', pad: 6, gapFree: false },
  WAVE: { prefix: 'WAVE-', pad: 6, gapFree: false },
  JOB: { prefix: 'JOB-', pad: 6, gapFree: false },
  SHP: { prefix: 'SHP-', pad: 6, gapFree: false },
  BOL: { prefix: 'BOL-', pad: 6, gapFree: false },
  MAN: { prefix: 'MAN-', pad: 6, gapFree: false },
  // Freight (LTL) shipments.
  FRT: { prefix: 'FRT-', pad: 6, gapFree: false },
  RMA: { prefix: 'RMA-', pad: 6, gapFree: false },
  WO: { prefix: 'WO-', pad: 6, gapFree: false },
  // Help desk tickets.
  TKT: { prefix: 'TKT-', pad: 6, gapFree: false },
  // Pallets registered without an id of their own (and no SSCC).
  PLT: { prefix: 'PLT-', pad: 6, gapFree: false },
  CTN: { prefix: 'CTN-', pad: 8, gapFree: false },
  INV: { prefix: 'INV-', pad: 6, gapFree: true },
  // Credit notes: their own gap-free series beside the invoices'.
  CN: { prefix: 'CN-', pad: 6, gapFree: true },
  // SSCC serial references: the bare number, which the label code wraps with its company prefix and check digit.
  SSCC: { prefix: '', pad: 0, gapFree: false },
} as const satisfies Record<string, { prefix: string; pad: number; gapFree: boolean }>;
export type NumberedKind = keyof typeof NUMBERING;

/** Where a sequence counts: the whole system (''), one warehouse's own series, or one customer's (SSCC serials). */
export type NumberScope = '' | { warehouseId: number } | { customerId: number };
const scopeKey = (scope: NumberScope) => (scope === '' ? '' : 'warehouseId' in scope ? `W${scope.warehouseId}` : `C${scope.customerId}`);

export const formatNumber = (kind: NumberedKind, value: number) =>
  `${NUMBERING[kind].prefix}${NUMBERING[kind].pad ? String(value).padStart(NUMBERING[kind].pad, '0') : value}`;

/**
 * Document numbers: one row per kind and scope, taken by one upsert that raises the row's value and answers the
 * value it held — atomic on both engines (PostgreSQL holds the row locked until the taker commits; SQLite runs one
 * transaction at a time), so no number is handed out twice, and no read-then-write is ever needed.
 *
 * The number is taken in the caller's transaction: a rolled-back document returns its number. Takers of one kind
 * and scope queue on its row until each commits, so take the number late in a transaction.
 */
export const documentNumbers = {
  async next(uow: UnitOfWork, kind: NumberedKind, scope: NumberScope = ''): Promise<{ value: number; number: string }> {
    const row = await sql<{ value: number | string }>`
      insert into document_sequence (kind, scope, next_value) values (${kind}, ${scopeKey(scope)}, 2)
      on conflict (kind, scope) do update set next_value = document_sequence.next_value + 1
      returning next_value - 1 as value`.execute(uow.tx);
    const value = Number(row.rows[0].value);
    return { value, number: formatNumber(kind, value) };
  },
};
