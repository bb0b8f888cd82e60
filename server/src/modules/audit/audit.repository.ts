import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

export interface AuditQuery {
  entity?: string; action?: string; userId?: number; from?: string; to?: string;
  search?: string; offset: number; limit: number; ascending: boolean;
}

export const auditRepository = {
  /** One page and the total in two statements, whatever the page size. */
  async list(db: Executor, q: AuditQuery, ilike: (col: any, pattern: string) => any) {
    let base = db.selectFrom('audit_log');
    if (q.entity) base = base.where('entity', '=', q.entity);
    if (q.action) base = base.where('action', '=', q.action);
    if (q.userId) base = base.where('user_id', '=', q.userId);
    if (q.from) base = base.where('at', '>=', q.from);
    if (q.to) base = base.where('at', '<=', q.to);
    if (q.search) base = base.where((eb) => eb.or([ilike(eb.ref('username'), q.search!), ilike(eb.ref('entity_id'), q.search!)]));
    const [items, total] = await Promise.all([
      base.selectAll().orderBy('id', q.ascending ? 'asc' : 'desc').limit(q.limit).offset(q.offset).execute(),
      base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, totalCount: Number(total.n) };
  },

  async listOutbox(db: Executor, offset: number, limit: number) {
    const [items, total] = await Promise.all([
      db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      db.selectFrom('mail_outbox').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, totalCount: Number(total.n) };
  },
};
