import { EventEmitter } from 'node:events';
import type { HubEventMap, HubEventName } from '@bolx/contracts';
import type { Database } from '../db/database.js';
import type { Insertable } from 'kysely';
import type { AuditLogTable, Executor } from '../db/schema.js';
import { compiledOnce } from '../db/compiled-once.js';
import { writeBehind } from '../db/pg-driver.js';
import { AUDIT_COLUMNS } from './audit.js';

/**
 * A domain event as the hub will deliver it: `target` is the hub method (contracts' HubEventMap), and the
 * warehouse and customer decide who may receive it.
 */
export interface DomainEvent<K extends HubEventName = HubEventName> {
  target: K;
  payload: HubEventMap[K];
  warehouseId?: number | null;
  customerId?: number | null;
}
/** The same, by the name that tells it apart from the internal domain events of platform/domain-events.ts. */
export type HubEvent<K extends HubEventName = HubEventName> = DomainEvent<K>;
export interface DeliveredEvent extends DomainEvent {
  id: number;
}

/** Events a statement: well under either engine's bound on parameters (4 a row). */
const EVENTS_PER_STATEMENT = 1000;

/** Inserts of at most this many rows (events and audit rows) are compiled once per shape; larger ones are built each time. */
const FEW_ROWS = 16;

/**
 * The outbox insert of `shape.events` events (their name, payload, warehouse and client a row), with `shape.audits`
 * audit rows (AUDIT_COLUMNS a row, after the events' values) inserted by the same statement when there are any.
 */
function eventsInsert(db: Executor, shape: { events: number; audits: number }, ...v: unknown[]) {
  const events = Array.from({ length: shape.events }, (_, i) => ({
    name: v[4 * i] as string, payload_json: v[4 * i + 1] as string, warehouse_id: v[4 * i + 2] as number | null, customer_id: v[4 * i + 3] as number | null,
  }));
  const from = 4 * shape.events;
  const audits = Array.from({ length: shape.audits }, (_, row) =>
    Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, v[from + row * AUDIT_COLUMNS.length + i]])) as Insertable<AuditLogTable>);
  const into: Pick<Executor, 'insertInto'> = audits.length ? db.with('audit', (q) => q.insertInto('audit_log').values(audits)) : db;
  return into.insertInto('event_outbox').values(events).returning(['id']);
}
const eventsInsertOnce = compiledOnce((s: { events: number; audits: number }) => `${s.events}|${s.audits}`, eventsInsert);

/** An events insert (with its audit rows) not built yet: built when sent, with the transaction's next statement. */
interface UnsentInsert { events: DomainEvent[]; payloads: string[]; audits: Insertable<AuditLogTable>[]; built: boolean }

/** How often a node whose listening connection was lost tries to listen again. */
const RELISTEN_EVERY_MS = 1000;

/**
 * A node announces at most this often: commits meanwhile go together in the next announcement. Under load (8
 * pickers) each pick had its own announcement and each node's read of it: two of its seven round trips. After a
 * quiet spell an announcement still goes at once.
 */
const ANNOUNCE_EVERY_MS = 20;

/** A notification's payload: PostgreSQL refuses one of 8,000 bytes or more (its default build). */
const NOTIFICATION_BYTES = 7900;

/**
 * An announced event as it travels in a notification: `[id, target, warehouse, client, payload]` (the payload as
 * the JSON the outbox holds), so no node has to load it; just its id when it is too large for a notification.
 */
function announced(id: number, event: DomainEvent, payloadJson: string): string {
  const whole = `[${id},${JSON.stringify(event.target)},${event.warehouseId ?? null},${event.customerId ?? null},${payloadJson}]`;
  return Buffer.byteLength(whole) < NOTIFICATION_BYTES - 2 ? whole : String(id);
}

/** What a notification brings: events whole, or ids to load (also how a node before announcing whole events sent them: "1,2,3"). */
function parseAnnouncement(payload: string): (number | DeliveredEvent)[] {
  if (!payload.startsWith('[')) return payload.split(',').map(Number);
  return (JSON.parse(payload) as (number | [number, HubEventName, number | null, number | null, unknown])[]).map((item) =>
    typeof item === 'number' ? item : { id: item[0], target: item[1], warehouseId: item[2], customerId: item[3], payload: item[4] } as DeliveredEvent);
}

/** Takes from `items` (announced()'s texts) as many as fit one notification, at least one. */
function oneNotification(items: string[]): string {
  let bytes = 2;
  let n = 0;
  while (n < items.length && (n === 0 || bytes + 1 + Buffer.byteLength(items[n]) < NOTIFICATION_BYTES)) bytes += 1 + Buffer.byteLength(items[n++]);
  return `[${items.splice(0, n).join(',')}]`;
}

/**
 * One channel per schema: ids are per schema, so a node must never hear (and load by id) another schema's
 * events — several test files, or several deployments, may share one PostgreSQL database.
 */
function channelFor(schema: string | undefined): string {
  if (!schema) return 'bolx_events';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(schema)) throw new Error(`Unusable PostgreSQL schema name for events: ${schema}`);
  return `bolx_events_${schema}`;
}

/**
 * The transactional outbox. `record` writes the event in the caller's transaction; it is delivered to local
 * subscribers only after that transaction commits — on PostgreSQL through NOTIFY, which every server node hears,
 * sent once the transaction has committed (see announce); on SQLite through `afterCommit`.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  private listenerClient: import('pg').PoolClient | undefined;
  /** Announced events to deliver, in order: whole, or ids to load first. */
  private readonly pending: (number | DeliveredEvent)[] = [];
  private draining = false;
  private stopped = false;
  /** The newest event id delivered from a notification: where to catch up from after listening again. */
  private lastDelivered = 0;
  private readonly channel: string;
  /** Committed events waiting to be announced (announced()'s texts), whether an announcement is on its way, and when the last went. */
  private readonly unannounced: string[] = [];
  private announcing = false;
  private lastAnnouncedAt = 0;
  /** Per transaction, its events insert waiting to be sent, which the transaction's later small changes join. */
  private readonly unsent = new WeakMap<object, UnsentInsert>();

  constructor(private readonly database: Database) {
    this.emitter.setMaxListeners(0);
    this.channel = channelFor(database.pgSchema);
  }

  async record<K extends HubEventName>(tx: Executor, event: DomainEvent<K>, afterCommit: (fn: () => void) => void): Promise<void> {
    await this.recordMany(tx, [event], afterCommit);
  }

  /** Several events of one change in one statement (a thousand a statement). */
  async recordMany(tx: Executor, events: DomainEvent[], afterCommit: (fn: () => void) => void): Promise<void> {
    // A bulk upload's thousands of events: a thousand rows a statement, well under either engine's parameter bound.
    for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT) await this.insertEvents(tx, events.slice(i, i + EVENTS_PER_STATEMENT), afterCommit);
  }

  /**
   * PostgreSQL: the events (at most EVENTS_PER_STATEMENT) and the audit rows of the same change in one statement
   * (a data-modifying WITH): one round trip where two were. Elsewhere: false, nothing written (the caller writes apart).
   */
  async recordWithAudits(tx: Executor, events: DomainEvent[], audits: Insertable<AuditLogTable>[], afterCommit: (fn: () => void) => void): Promise<boolean> {
    if (!this.canRecordWithAudits(events.length, audits.length)) return false;
    await this.insertEvents(tx, events, afterCommit, audits);
    return true;
  }

  canRecordWithAudits(events: number, audits: number): boolean {
    return this.database.dialect.engine === 'postgres' && events > 0 && events <= EVENTS_PER_STATEMENT && audits > 0;
  }

  /**
   * The events' insert, with `audits` (PostgreSQL) as its data-modifying WITH; compiled once for a few rows (every
   * change's). Nothing in the transaction waits for its answer, so on PostgreSQL it travels with the transaction's
   * next statement (db/pg-driver.ts), often its COMMIT: one round trip fewer for every change recorded. A later small
   * change of the same transaction recorded before that statement joins it (a pick's move and its job's change: one
   * insert, where there were two); it is built only when sent.
   */
  private async insertEvents(tx: Executor, events: DomainEvent[], afterCommit: (fn: () => void) => void, audits: Insertable<AuditLogTable>[] = []): Promise<void> {
    const payloads = events.map((event) => JSON.stringify(event.payload));
    const unsent = this.unsent.get(tx);
    if (unsent && !unsent.built && unsent.events.length + unsent.audits.length + events.length + audits.length <= FEW_ROWS) {
      unsent.events.push(...events);
      unsent.payloads.push(...payloads);
      unsent.audits.push(...audits);
      return;
    }
    const insert: UnsentInsert = { events: [...events], payloads, audits: [...audits], built: false };
    if (events.length + audits.length <= FEW_ROWS) this.unsent.set(tx, insert);
    const build = () => {
      insert.built = true;
      const shape = { events: insert.events.length, audits: insert.audits.length };
      const values = [
        ...insert.events.flatMap((event, i) => [event.target, insert.payloads[i], event.warehouseId ?? null, event.customerId ?? null]),
        ...insert.audits.flatMap((a) => AUDIT_COLUMNS.map((c) => a[c] ?? null)),
      ];
      return shape.events + shape.audits <= FEW_ROWS ? eventsInsertOnce.compiled(tx, shape, ...values) : eventsInsert(tx, shape, ...values).compile();
    };
    await writeBehind(tx, build, (rows) => {
      const { events: all, payloads: texts } = insert;
      if (this.database.dialect.engine === 'postgres') afterCommit(() => this.announce(rows.map((r, i) => announced(Number(r.id), all[i], texts[i]))));
      else afterCommit(() => all.forEach((event, i) => this.emitter.emit('event', { ...event, id: rows[i].id })));
    });
  }

  /**
   * PostgreSQL: tells every node (this one included) of committed events, after their transaction. A NOTIFY inside
   * the transaction would hold PostgreSQL's one notification lock from its commit until the commit is on disk, so
   * every writing request of the cluster would commit in turn, each waiting for the previous one's disk flush (8
   * pickers at once were slower than one). Announced apart, the commits share their flushes, and the announcement
   * itself waits for no flush (synchronous_commit off: a notification is not data). Events committed meanwhile, and
   * within ANNOUNCE_EVERY_MS of the last announcement, go together in the next one. The events travel whole, so the
   * nodes deliver them without reading them back (announced()).
   */
  private announce(items: string[]): void {
    this.unannounced.push(...items);
    if (this.announcing) return;
    this.announcing = true;
    void (async () => {
      try {
        // The same commit's other changes are announced by hooks that run right after this one: one announcement for all.
        await Promise.resolve();
        while (this.unannounced.length > 0) {
          const wait = this.lastAnnouncedAt + ANNOUNCE_EVERY_MS - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const round = this.unannounced.splice(0);
          while (round.length > 0) {
            // On the pool itself, never a request's pinned connection (platform/pinned-connection.ts), which may by now be
            // another request's transaction.
            await this.database.pool!.query(`select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`, [this.channel, oneNotification(round)]);
          }
          this.lastAnnouncedAt = Date.now();
        }
      } catch {
        this.unannounced.length = 0; // the database is closing; nothing is listening any more
      } finally {
        this.announcing = false;
      }
    })();
  }

  /** The newest committed event's id: what a listener joining now has already missed. */
  async latestId(): Promise<number> {
    const row = await this.database.db.selectFrom('event_outbox').select(({ fn }) => fn.max('id').as('id')).executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  subscribe(listener: (event: DeliveredEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** On PostgreSQL, listens for events committed by any node. */
  async start(): Promise<void> {
    if (!this.database.pool) return;
    this.stopped = false;
    this.lastDelivered = await this.latestId();
    await this.listen();
  }

  private async listen(): Promise<void> {
    const client = await this.database.pool!.connect();
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      this.pending.push(...parseAnnouncement(msg.payload));
      void this.drain();
    });
    // The listening connection lost (PostgreSQL restarted, the connection was cut): listen again on a new one.
    client.on('error', () => void this.relisten(client));
    client.on('end', () => void this.relisten(client));
    try {
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      client.release(true);
      throw err;
    }
    if (this.stopped) client.release();
    else this.listenerClient = client;
  }

  /**
   * Listens again after the listening connection was lost, trying every second until the database answers; then
   * delivers the events committed meanwhile (those after the last one delivered), which no notification brought.
   * An event committed just as listening resumed may be announced both ways and reach the hub twice: its clients
   * refetch what changed, so a repeat costs a read, where a miss would leave a screen stale.
   */
  private async relisten(lost: import('pg').PoolClient): Promise<void> {
    if (this.listenerClient !== lost) return;
    this.listenerClient = undefined;
    lost.release(true);
    while (!this.stopped) {
      try {
        await this.listen();
        const missed = await this.database.db.selectFrom('event_outbox').select('id').where('id', '>', this.lastDelivered).orderBy('id').execute();
        const waiting = new Set(this.pending.map((p) => (typeof p === 'number' ? p : p.id)));
        this.pending.push(...missed.map((r) => Number(r.id)).filter((id) => !waiting.has(id)));
        void this.drain();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, RELISTEN_EVERY_MS));
      }
    }
  }

  /**
   * Notifications arrive in the order they were announced (a node's, in commit order); loading each one on its own
   * pooled query could emit them out of order, so one loader at a time takes every event waiting (whole, or an id to
   * load) and emits them in that order.
   */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, 500);
        const ids = batch.filter((p): p is number => typeof p === 'number');
        const loaded = new Map<number, DeliveredEvent>();
        if (ids.length > 0) {
          try {
            for (const row of await this.database.db.selectFrom('event_outbox').selectAll().where('id', 'in', ids).execute()) {
              loaded.set(Number(row.id), {
                id: row.id, target: row.name as HubEventName, payload: JSON.parse(row.payload_json), warehouseId: row.warehouse_id, customerId: row.customer_id,
              });
            }
          } catch {
            return; // the database is closing; nothing is listening any more
          }
        }
        for (const p of batch) {
          const event = typeof p === 'number' ? loaded.get(p) : p;
          if (!event) continue;
          this.lastDelivered = Math.max(this.lastDelivered, Number(event.id));
          this.emitter.emit('event', event);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.listenerClient;
    this.listenerClient = undefined;
    client?.release();
  }
}
