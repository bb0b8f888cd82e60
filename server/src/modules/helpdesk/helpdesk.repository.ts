import { sql, type Expression, type SqlBool } from 'kysely';
import type { TicketLinkKind } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

export interface TicketFilterValues {
  warehouseId?: number; customerId?: number; status?: string; priority?: string; overdue?: boolean;
  /** Staff: assigned to this user; a client: opened by this user. */
  assigneeId?: number; createdBy?: number;
}

const TICKET_LIST: ListSpec = {
  sortable: {
    ticketNumber: 't.ticket_number', title: 't.title', status: 't.status', priority: 't.priority', customerName: 'c.name',
    dueAt: 't.due_at', createdAt: 't.created_at', updatedAt: 't.updated_at',
  },
  defaultSort: { column: 't.id', direction: 'desc' },
  searchable: ['t.ticket_number', 't.title'],
  tieBreaker: 't.id',
};

/** Each linkable document: its table and the column holding the number people know it by. */
export const LINKED_DOCUMENTS = {
  order: { table: 'sales_order', number: 'so_number' },
  'receiving-order': { table: 'receiving_order', number: 'ro_number' },
  shipment: { table: 'shipment', number: 'shipment_number' },
  'freight-shipment': { table: 'freight_shipment', number: 'ship_number' },
  rma: { table: 'rma', number: 'rma_number' },
  invoice: { table: 'invoice', number: 'invoice_number' },
} as const satisfies Record<TicketLinkKind, { table: string; number: string }>;

/** The linked document's number, one correlated lookup per kind (a draft invoice has none yet: "#id"). */
const linkNumber = sql<string | null>`CASE t.link_kind ${sql.join(Object.entries(LINKED_DOCUMENTS).map(([kind, d]) =>
  sql`WHEN ${sql.lit(kind)} THEN (SELECT coalesce(${sql.ref(`x.${d.number}`)}, '#' || ${sql.ref('x.id')}) FROM ${sql.table(d.table)} x WHERE x.id = t.link_id)`), sql` `)} END`;

/**
 * Overdue: still open and past its due time. While Waiting on Client the clock stands, so such a ticket is overdue
 * only when it already was when the wait began.
 */
export const overdueCondition = (now: string): Expression<SqlBool> => sql<SqlBool>`(
  (t.status IN ('Open', 'In Progress') AND t.due_at < ${now}) OR (t.status = 'Waiting on Client' AND t.waiting_since > t.due_at))`;

function ticketsQuery(db: Executor, scope: Scope, f: TicketFilterValues, now: string) {
  let q = db.selectFrom('ticket as t').innerJoin('customer as c', 'c.id', 't.customer_id')
    .leftJoin('app_user as a', 'a.id', 't.assignee_id').leftJoin('app_user as cb', 'cb.id', 't.created_by')
    .where(scope.where({ warehouse: 't.warehouse_id', customer: 't.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status) q = q.where('t.status', '=', f.status);
  if (f.priority) q = q.where('t.priority', '=', f.priority);
  if (f.overdue) q = q.where(overdueCondition(now));
  if (f.assigneeId) q = q.where('t.assignee_id', '=', f.assigneeId);
  if (f.createdBy) q = q.where('t.created_by', '=', f.createdBy);
  return q;
}
const ticketColumns = (q: ReturnType<typeof ticketsQuery>, now: string) => q.select([
  't.id', 't.ticket_number', 't.title', 't.description', 't.status', 't.priority', 't.category', 't.warehouse_id', 't.customer_id', 'c.name as customer_name',
  't.assignee_id', sql<string | null>`CASE WHEN a.id IS NULL THEN NULL ELSE a.first_name || ' ' || a.last_name END`.as('assignee_name'),
  'cb.username as created_by_name', 't.created_by', 't.due_at', 't.waiting_since', 't.link_kind', 't.link_id', linkNumber.as('link_number'),
  sql<number>`(SELECT count(*) FROM ticket_comment tc WHERE tc.ticket_id = t.id)`.as('comments'),
  sql<number>`CASE WHEN ${overdueCondition(now)} THEN 1 ELSE 0 END`.as('overdue'),
  't.created_at', 't.updated_at',
]);
export type TicketRow = {
  id: number; ticket_number: string; title: string; description: string | null; status: string; priority: string; category: string;
  warehouse_id: number; customer_id: number; customer_name: string; assignee_id: number | null; assignee_name: string | null;
  created_by_name: string | null; created_by: number | null; due_at: string; waiting_since: string | null; link_kind: string | null;
  link_id: number | null; link_number: string | null; comments: number; overdue: number; created_at: string; updated_at: string;
};

/** Every statement of the help desk. */
export const helpDeskRepository = {
  list(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<TicketFilterValues>, now: string) {
    return listRows(dialect, ticketsQuery(db, scope, req.filters ?? {}, now), (q) => ticketColumns(q as never, now) as never, req, TICKET_LIST) as Promise<{ rows: TicketRow[]; total: number }>;
  },
  find(db: Executor, scope: Scope, id: number, now: string) {
    return ticketColumns(ticketsQuery(db, scope, {}, now).where('t.id', '=', id), now).executeTakeFirst() as Promise<TicketRow | undefined>;
  },
  /** The tickets about one document, newest first (its view shows them). */
  linked(db: Executor, scope: Scope, kind: TicketLinkKind, linkId: number, now: string) {
    return ticketColumns(ticketsQuery(db, scope, {}, now).where('t.link_kind', '=', kind).where('t.link_id', '=', linkId), now)
      .orderBy('t.id', 'desc').limit(100).execute() as Promise<TicketRow[]>;
  },
  /** Where a linkable document belongs and its number, whoever may see it (the caller's scope is checked after). */
  async document(db: Executor, kind: TicketLinkKind, by: { id?: number; number?: string }) {
    const d = LINKED_DOCUMENTS[kind];
    const where = by.id !== undefined ? sql`id = ${by.id}` : sql`${sql.ref(d.number)} = ${by.number ?? ''}`;
    const r = await sql<{ id: number; warehouse_id: number; customer_id: number; number: string | null }>`
      SELECT id, warehouse_id, customer_id, ${sql.ref(d.number)} AS number FROM ${sql.table(d.table)} WHERE ${where}`.execute(db);
    return r.rows[0];
  },
  /** Whether the client is served at the warehouse. */
  async servedAt(db: Executor, warehouseId: number, customerId: number) {
    return !!(await db.selectFrom('customer_warehouse').select('customer_id').where('warehouse_id', '=', warehouseId).where('customer_id', '=', customerId).executeTakeFirst());
  },
  /** Staff who may work a ticket of this warehouse and client: active, not a client account, with both in their access. */
  assignees(db: Executor, warehouseId: number, customerId: number) {
    return db.selectFrom('app_user as u')
      .select(['u.id', sql<string>`u.first_name || ' ' || u.last_name`.as('name'), 'u.email'])
      .where('u.is_active', '=', 1).where('u.role', '<>', 'Client')
      .where((eb) => eb.or([
        eb('u.role', '=', 'SuperAdministrator'),
        eb.and([
          eb.exists(eb.selectFrom('user_warehouse as w').select('w.user_id').whereRef('w.user_id', '=', 'u.id').where('w.warehouse_id', '=', warehouseId)),
          eb.exists(eb.selectFrom('user_customer as uc').select('uc.user_id').whereRef('uc.user_id', '=', 'u.id').where('uc.customer_id', '=', customerId)),
        ]),
      ]))
      .orderBy('u.first_name').orderBy('u.last_name').orderBy('u.id').limit(500).execute();
  },
  insert(db: Executor, row: {
    ticket_number: string; warehouse_id: number; customer_id: number; title: string; description: string | null; category: string; priority: string;
    assignee_id: number | null; link_kind: string | null; link_id: number | null; due_at: string; created_by: number | null; created_at: string;
  }) {
    return db.insertInto('ticket').values({ ...row, updated_at: row.created_at }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },
  update(db: Executor, id: number, set: { category?: string; priority?: string; assignee_id?: number | null; due_at?: string; updated_at: string }) {
    return db.updateTable('ticket').set(set).where('id', '=', id).execute();
  },
  touch(db: Executor, id: number, at: string) {
    return db.updateTable('ticket').set({ updated_at: at }).where('id', '=', id).execute();
  },
  addComment(db: Executor, row: { ticket_id: number; body: string; author_id: number | null; created_at: string }) {
    return db.insertInto('ticket_comment').values(row).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },
  comments(db: Executor, ticketId: number) {
    return db.selectFrom('ticket_comment as tc').leftJoin('app_user as u', 'u.id', 'tc.author_id')
      .select(['tc.id', 'tc.body', 'u.username', 'u.role', 'tc.created_at']).where('tc.ticket_id', '=', ticketId).orderBy('tc.id').execute();
  },
  addAttachment(db: Executor, row: { ticket_id: number; file_id: number; uploaded_by: number | null; created_at: string }) {
    return db.insertInto('ticket_attachment').values(row).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },
  attachments(db: Executor, ticketId: number) {
    return db.selectFrom('ticket_attachment as ta').innerJoin('stored_file as f', 'f.id', 'ta.file_id').leftJoin('app_user as u', 'u.id', 'ta.uploaded_by')
      .select(['ta.id', 'ta.ticket_id', 'ta.file_id', 'f.file_name', 'u.username', 'ta.created_at']).where('ta.ticket_id', '=', ticketId).orderBy('ta.id').execute();
  },
  attachment(db: Executor, id: number) {
    return db.selectFrom('ticket_attachment').select(['id', 'ticket_id', 'file_id']).where('id', '=', id).executeTakeFirst();
  },
  history(db: Executor, ticketId: number) {
    return db.selectFrom('document_status_history').select(['from_status', 'to_status', 'at', 'username', 'reason'])
      .where('kind', '=', 'TICKET').where('document_id', '=', ticketId).orderBy('id').execute();
  },
  /** Who hears of a ticket by e-mail: these users' addresses (active ones). */
  emails(db: Executor, userIds: number[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('app_user').select(['id', 'email']).where('id', 'in', userIds).where('is_active', '=', 1).execute();
  },
};
