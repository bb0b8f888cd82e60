import type { Dialect } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';

export interface AuditFilters { entity?: string; action?: string; userId?: number; from?: string; to?: string }

/** The trail newest first by default; the search box looks in the user name and the record's id. */
const AUDIT_LIST: ListSpec = {
  sortable: { at: 'at', id: 'id', username: 'username', entity: 'entity', action: 'action' },
  defaultSort: { column: 'id', direction: 'desc' },
  searchable: ['username', 'entity_id'],
  tieBreaker: 'id',
};
const OUTBOX_LIST: ListSpec = {
  sortable: { createdAt: 'created_at', id: 'id', to: 'to_address', subject: 'subject' },
  defaultSort: { column: 'id', direction: 'desc' },
  searchable: ['to_address', 'subject'],
  tieBreaker: 'id',
};

export const auditRepository = {
  /** One page and the total in two statements, whatever the page size. */
  list(db: Executor, dialect: Dialect, req: ListRequest<AuditFilters>) {
    const f = req.filters ?? {};
    let base = db.selectFrom('audit_log');
    if (f.entity) base = base.where('entity', '=', f.entity);
    if (f.action) base = base.where('action', '=', f.action);
    if (f.userId) base = base.where('user_id', '=', f.userId);
    if (f.from) base = base.where('at', '>=', f.from);
    if (f.to) base = base.where('at', '<=', f.to);
    return listRows(dialect, base, (qb) => qb.selectAll(), req, AUDIT_LIST);
  },

  listOutbox(db: Executor, dialect: Dialect, req: ListRequest<unknown>) {
    return listRows(dialect, db.selectFrom('mail_outbox'), (qb) => qb.selectAll(), req, OUTBOX_LIST);
  },
};
