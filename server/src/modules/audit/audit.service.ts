import type { Db } from '../../db/schema.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { containsPattern, type Dialect } from '../../db/dialect.js';
import { auditRepository as repo } from './audit.repository.js';

const parse = (json: string | null) => (json == null ? null : JSON.parse(json));

/** Reading the audit trail and the mail outbox (administrators). Writing is platform/audit.ts. */
export class AuditService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
  }

  async list(req: {
    filters?: { entity?: string; action?: string; userId?: number; from?: string; to?: string };
    searchQuery: string; pageNumber: number; pageSize: number; sort?: { field: string; order: 'ascend' | 'descend' };
  }) {
    const f = req.filters ?? {};
    const { items, totalCount } = await repo.list(this.db, {
      ...f,
      search: req.searchQuery ? containsPattern(req.searchQuery) : undefined,
      offset: (req.pageNumber - 1) * req.pageSize,
      limit: req.pageSize,
      ascending: req.sort?.order === 'ascend',
    }, this.dialect.ilike);
    return {
      totalCount,
      items: items.map((r) => ({
        id: r.id, at: r.at, userId: r.user_id, username: r.username, action: r.action, entity: r.entity, entityId: r.entity_id,
        warehouseId: r.warehouse_id, customerId: r.customer_id, before: parse(r.before_json), after: parse(r.after_json),
        requestId: r.request_id, ip: r.ip,
      })),
    };
  }

  async outbox(pageNumber: number, pageSize: number) {
    const { items, totalCount } = await repo.listOutbox(this.db, (pageNumber - 1) * pageSize, pageSize);
    return {
      totalCount,
      items: items.map((m) => ({ id: m.id, to: m.to_address, subject: m.subject, body: m.body, createdAt: m.created_at, sentAt: m.sent_at, error: m.error })),
    };
  }
}
