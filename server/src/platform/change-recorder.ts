import type { Executor } from '../db/schema.js';
import type { Actor } from './actor.js';
import { AUDIT_ROWS_PER_STATEMENT, auditRows, writeAudits, type AuditEntry } from './audit.js';
import { DomainEvents, type DomainEventMap, type DomainEventName, type RaisedEvent } from './domain-events.js';
import type { EventBus, HubEvent } from './events.js';
import type { UnitOfWork } from './unit-of-work.js';

/**
 * One change to a record: its audit entries (before/after), the hub events that tell the screens, and the
 * internal domain events other modules subscribe to (platform/domain-events.ts).
 */
export interface Change {
  audit: AuditEntry | AuditEntry[];
  events?: HubEvent | HubEvent[];
  raises?: RaisedEvent | RaisedEvent[];
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The one way to record a change: the audit rows and the hub events of every change passed, in the caller's
 * transaction, in one statement each whatever their number — so a rolled-back change leaves neither — then its
 * domain events to their subscribers (in-transaction ones run before `record` returns; a throw rolls back).
 */
export class ChangeRecorder {
  constructor(private readonly events: EventBus, readonly domainEvents: DomainEvents = new DomainEvents()) {}

  async record(uow: UnitOfWork, actor: Actor, ...changes: Change[]): Promise<void> {
    const audits = changes.flatMap((c) => list(c.audit));
    const events = changes.flatMap((c) => list(c.events));
    // PostgreSQL writes a change's audit rows with its events, in one statement, when they fit in one.
    const together = this.events.canRecordWithAudits(events.length, audits.length) && audits.length <= AUDIT_ROWS_PER_STATEMENT
      && await this.events.recordWithAudits(uow.tx, events, auditRows(actor, new Date().toISOString(), audits), uow.afterCommit);
    if (!together) {
      await writeAudits(uow.tx as Executor, actor, audits);
      await this.events.recordMany(uow.tx, events, uow.afterCommit);
    }
    await this.domainEvents.raise(uow, actor, changes.flatMap((c) => list(c.raises)));
  }

  /** A domain event with no audit row or hub event of its own (a change recorded elsewhere). */
  async raise<K extends DomainEventName>(uow: UnitOfWork, actor: Actor, name: K, payload: DomainEventMap[K]): Promise<void> {
    await this.domainEvents.raise(uow, actor, [{ name, payload } as RaisedEvent]);
  }

  /**
   * An audit row of something that happens without a transaction (a refused sign-in changes nothing else):
   * written on its own. No hub or domain events — those wait for a commit this has not got.
   */
  async recordAlone(db: Executor, actor: Actor, audit: AuditEntry): Promise<void> {
    await writeAudits(db, actor, [audit]);
  }
}
