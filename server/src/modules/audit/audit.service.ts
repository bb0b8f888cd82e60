import type { Db } from '../../db/schema.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import type { Dialect } from '../../db/dialect.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import { auditRepository as repo, type AuditFilters } from './audit.repository.js';

const parse = (json: string | null) => (json == null ? null : JSON.parse(json));

/** Reading the audit trail and the mail outbox (administrators). Writing is platform/audit.ts. */
export class AuditService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect'>) {
    this.db = deps.db;
    this.dialect = deps.dialect;
  }

  async list(req: ListRequest<AuditFilters>) {
    return toListPage(await repo.list(this.db, this.dialect, req), (r) => ({
      id: r.id, at: r.at, userId: r.user_id, username: r.username, action: r.action, entity: r.entity, entityId: r.entity_id,
      warehouseId: r.warehouse_id, customerId: r.customer_id, before: parse(r.before_json), after: parse(r.after_json),
      requestId: r.request_id, ip: r.ip,
    }));
  }

  async outbox(req: ListRequest<unknown>) {
    return toListPage(await repo.listOutbox(this.db, this.dialect, req), (m) => ({
      id: m.id, to: m.to_address, subject: m.subject, body: m.body, createdAt: m.created_at, sentAt: m.sent_at, error: m.error,
    }));
  }
}
