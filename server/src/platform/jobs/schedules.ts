import type { Db } from '../../db/schema.js';
import type { WarehouseTimeZones } from '../business-day.js';
import { inTransaction } from '../unit-of-work.js';
import { nextSlot, parseCron, previousSlot, type Cron } from './cron.js';
import type { Jobs } from './jobs.js';

/** A schedule, registered in code: a job queued at each slot of a cron read in a warehouse's (or a named) zone. */
export interface ScheduleDefinition {
  name: string;
  /** "m h dom mon dow" */
  cron: string;
  job: string;
  /** The job's payload for one slot (ISO time of the slot given). */
  payload?: (slotAt: string) => unknown;
  /** Its clock: this warehouse's time zone (and the job's warehouse scope). */
  warehouseId?: number;
  /** Its clock when it is no one warehouse's; UTC when neither is given. */
  timeZone?: string;
}

interface Registered extends ScheduleDefinition { parsed: Cron }

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Fires schedules: every node ticks, and each slot runs once across all of them — the slot is claimed by inserting
 * its (schedule, slot time) row, which only one insert can do; the job is queued in that same transaction. A slot
 * missed while every node was down fires once when one comes back (the latest one only, never a backlog), and a
 * new schedule starts with the slots after it was first seen.
 */
export class Schedules {
  private readonly schedules = new Map<string, Registered>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> = Promise.resolve();
  /** Per schedule, when it was first seen and the latest slot known fired (by any node): most ticks read nothing. */
  private readonly known = new Map<string, { createdAt: number; lastSlot: number }>();

  constructor(private readonly deps: {
    db: Db; jobs: Jobs; timeZones: WarehouseTimeZones;
    log: { warn(obj: object, msg: string): void };
  }) {}

  register(def: ScheduleDefinition): void {
    if (this.schedules.has(def.name)) throw new Error(`Schedule ${def.name} is registered twice`);
    if (def.name.length > 64) throw new Error(`Schedule name ${def.name} is longer than 64 characters`);
    this.schedules.set(def.name, { ...def, parsed: parseCron(def.cron) });
  }

  /** Start-up check: every schedule's job has a handler. */
  check(): void {
    for (const s of this.schedules.values()) {
      if (!this.deps.jobs.has(s.job)) throw new Error(`Schedule ${s.name} queues job ${s.job}, which has no handler`);
    }
  }

  start(everyMs = 15_000): void {
    this.check();
    clearInterval(this.timer);
    this.timer = setInterval(() => { this.ticking = this.tick().catch((err) => this.deps.log.warn({ err }, 'schedule tick failed')); }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** Fires every schedule whose latest slot at `now` has not fired yet; answers how many this node fired. */
  async tick(now: number = Date.now()): Promise<number> {
    let fired = 0;
    for (const s of this.schedules.values()) {
      if (await this.fire(s, now)) fired++;
    }
    return fired;
  }

  private async fire(s: Registered, now: number): Promise<boolean> {
    const { db } = this.deps;
    const zone = s.timeZone ?? (s.warehouseId ? await this.deps.timeZones.of(s.warehouseId) : 'UTC');
    const slot = previousSlot(s.parsed, zone, now);
    const known = this.known.get(s.name);
    if (known && (slot === null || slot <= known.lastSlot || slot < known.createdAt)) return false;
    await db.insertInto('job_schedule')
      .values({ name: s.name, cron: s.cron, time_zone: zone, job_name: s.job, last_slot_at: null, last_job_id: null, next_slot_at: slotIso(nextSlot(s.parsed, zone, now)), created_at: iso(now), updated_at: iso(now) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await db.selectFrom('job_schedule').selectAll().where('name', '=', s.name).executeTakeFirstOrThrow();
    const lastSlot = row.last_slot_at ? Date.parse(row.last_slot_at) : -Infinity;
    this.known.set(s.name, { createdAt: Date.parse(row.created_at), lastSlot });
    if (slot === null || slot < Date.parse(row.created_at) || lastSlot >= slot) return false;
    const slotAt = iso(slot);
    const fired = await inTransaction(db, async (uow) => {
      const claimed = await uow.tx.insertInto('job_schedule_slot')
        .values({ schedule_name: s.name, slot_at: slotAt, job_id: null, node: this.deps.jobs.node, created_at: iso(now) })
        .onConflict((oc) => oc.columns(['schedule_name', 'slot_at']).doNothing())
        .returning('schedule_name')
        .executeTakeFirst();
      if (!claimed) return false; // another node fired this slot
      const job = await this.deps.jobs.enqueue(uow, s.job, s.payload ? s.payload(slotAt) : {}, { warehouseId: s.warehouseId ?? null });
      await uow.tx.updateTable('job_schedule_slot').set({ job_id: job.jobId }).where('schedule_name', '=', s.name).where('slot_at', '=', slotAt).execute();
      await uow.tx.updateTable('job_schedule')
        .set({ cron: s.cron, time_zone: zone, job_name: s.job, last_slot_at: slotAt, last_job_id: job.jobId, next_slot_at: slotIso(nextSlot(s.parsed, zone, now)), updated_at: iso(now) })
        .where('name', '=', s.name)
        .execute();
      return true;
    });
    // Fired here or by another node: either way this slot is done.
    this.known.set(s.name, { createdAt: Date.parse(row.created_at), lastSlot: slot });
    return fired;
  }
}

const slotIso = (ms: number | null) => (ms === null ? null : iso(ms));
