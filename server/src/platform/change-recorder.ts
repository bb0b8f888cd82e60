import type { Executor } from '../db/schema.js';
import type { Actor } from './actor.js';
import { writeAudits, type AuditEntry } from './audit.js';
import type { DomainEvent, EventBus } from './events.js';
import type { UnitOfWork } from './unit-of-work.js';

/** One change to a record: its audit entries (before/after) and the hub events that tell the screens. */
export interface Change {
  audit: AuditEntry | AuditEntry[];
  events?: DomainEvent | DomainEvent[];
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The one way to record a change: the audit rows and the hub events of every change passed, in the caller's
 * transaction, in one statement each whatever their number — so a rolled-back change leaves neither.
 */
export class ChangeRecorder {
  constructor(private readonly events: EventBus) {}

  async record(uow: UnitOfWork, actor: Actor, ...changes: Change[]): Promise<void> {
    await writeAudits(uow.tx as Executor, actor, changes.flatMap((c) => list(c.audit)));
    await this.events.recordMany(uow.tx, changes.flatMap((c) => list(c.events)), uow.afterCommit);
  }
}
