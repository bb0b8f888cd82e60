import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Selectable } from 'kysely';
import type { ZodType } from 'zod';
import type { HubEventMap, JobView } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { JobTable } from '../../db/tables/jobs.js';
import type { EventBus } from '../events.js';
import { AppError } from '../errors.js';
import { inTransaction, type UnitOfWork } from '../unit-of-work.js';

export type JobRow = Selectable<JobTable>;

/** What a handler is given besides its payload: who the job is for, and a way to report progress. */
export interface JobContext {
  jobId: number;
  /** 1 on the first run; a retry (or a job taken over from a stopped node) counts on. */
  attempt: number;
  maxAttempts: number;
  ownerUserId: number | null;
  warehouseId: number | null;
  customerId: number | null;
  /** Reports how far the work got (stored, and sent to the owner over the hub, at most a few times a second). */
  progress(done: number, total?: number | null, message?: string | null): Promise<void>;
  /** Aborted when this node lost the job's lock (another node has taken it over) or is stopping. */
  signal: AbortSignal;
}

/** A named kind of job: its payload's schema (checked when queued and when run) and its work. */
export interface JobHandler<P> {
  payload: ZodType<P>;
  run(payload: P, ctx: JobContext): Promise<unknown>;
  /** Tries before the job fails (a failure that is the caller's fault, a 4xx, never retries). Default 3. */
  maxAttempts?: number;
  /** The wait before the first retry; it doubles each time. Default 5 s. */
  backoffMs?: number;
  /** Tidies up after a job cancelled before it ran (what it kept for the work), in the cancelling transaction. */
  onCancel?(payload: P, uow: UnitOfWork): Promise<void>;
}

export interface EnqueueOptions {
  /** The user the job runs for: only they (or an administrator) may read it, and only they hear its progress. */
  ownerUserId?: number | null;
  warehouseId?: number | null;
  customerId?: number | null;
  runAfter?: Date;
  maxAttempts?: number;
  backoffMs?: number;
}

export interface WorkerOptions {
  /** How many jobs this node runs at once. */
  concurrency: number;
  /** How often an idle worker looks for due jobs (a job queued on this node wakes it at once). */
  pollMs: number;
  /** How long a claim holds a job; renewed every third of it while the handler runs. */
  lockMs: number;
}

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = { concurrency: 2, pollMs: 1000, lockMs: 60_000 };

const PROGRESS_EVERY_MS = 250;

const iso = (ms: number = Date.now()) => new Date(ms).toISOString();

type JobSubEvent = HubEventMap['ReceiveJobData']['subEvent'];

/** The job as its owner sees it (the API's answer and the hub event's payload). */
export function jobView(row: JobRow): JobView {
  const total = row.progress_total;
  return {
    jobId: Number(row.id),
    name: row.name,
    status: row.status as JobView['status'],
    progress: {
      done: row.progress_done, total, message: row.progress_message,
      percent: row.status === 'succeeded' ? 100 : total ? Math.min(100, Math.floor((row.progress_done * 100) / total)) : null,
    },
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    warehouseId: row.warehouse_id,
    customerId: row.customer_id,
    ownerUserId: row.owner_user_id,
    result: row.result_json == null ? null : JSON.parse(row.result_json),
    error: row.error == null ? null : JSON.parse(row.error),
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** A failure as stored: a caller's error (AppError) keeps its status and details, anything else is a 500. */
function failureOf(err: unknown): { status: number; message: string; details?: unknown } {
  if (err instanceof AppError) return { status: err.status, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) };
  return { status: 500, message: err instanceof Error ? err.message : String(err) };
}

const isUnitOfWork = (target: UnitOfWork | Db): target is UnitOfWork => 'afterCommit' in target && 'tx' in target;

/**
 * Background jobs: a table any node claims from. A claim is one statement that sets the lock owner and its expiry
 * (on PostgreSQL the row is picked with FOR UPDATE SKIP LOCKED, so nodes never wait on or share a job; SQLite has
 * one worker, in the one process). The lock is renewed while the handler runs; a job whose lock ran out (its node
 * was killed) is claimed again, the attempt counted. A failure is retried with a doubling wait until its attempts
 * are spent. Each change of a job goes to its owner over the hub.
 */
/** What the worker reports as a run ends (the /metrics counters); a job's name is its handler's, a closed set. */
export interface JobMetrics {
  finished(job: string, outcome: 'succeeded' | 'retrying' | 'failed', seconds: number): void;
}

export class Jobs {
  readonly node = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, JobHandler<any>>();
  private options: WorkerOptions = DEFAULT_WORKER_OPTIONS;
  private started = false;
  private stopping = false;
  private loopDone: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** A poke that came while the worker was busy claiming: it looks again before sleeping. */
  private poked = false;
  private nextAbandonedCheck = 0;
  private readonly running = new Map<number, { promise: Promise<void>; abort: AbortController }>();

  constructor(private readonly deps: {
    db: Db; dialect: Dialect; events: EventBus;
    log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
    metrics?: JobMetrics;
  }) {}

  register<P>(name: string, handler: JobHandler<P>): void {
    if (this.handlers.has(name)) throw new Error(`Job handler ${name} is registered twice`);
    this.handlers.set(name, handler);
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  /**
   * Queues a job, in the caller's transaction when given one (the job exists exactly when the change that asked
   * for it commits), or in its own. The payload is checked against the handler's schema now, not when it runs.
   */
  async enqueue<P>(target: UnitOfWork | Db, name: string, payload: P, opts: EnqueueOptions = {}): Promise<JobView> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No job handler named ${name}`);
    const checked = handler.payload.parse(payload);
    const insert = async (uow: UnitOfWork) => {
      const row = await uow.tx.insertInto('job').values({
        name,
        payload_json: JSON.stringify(checked),
        max_attempts: opts.maxAttempts ?? handler.maxAttempts ?? 3,
        backoff_ms: opts.backoffMs ?? handler.backoffMs ?? 5000,
        run_after: iso(opts.runAfter?.getTime()),
        owner_user_id: opts.ownerUserId ?? null,
        warehouse_id: opts.warehouseId ?? null,
        customer_id: opts.customerId ?? null,
        progress_total: null, progress_message: null, lock_owner: null, locked_until: null, result_json: null, error: null,
        started_at: null, finished_at: null,
      }).returningAll().executeTakeFirstOrThrow();
      await this.announce(uow, row, 'JobQueued');
      uow.afterCommit(() => this.poke());
      return jobView(row);
    };
    return isUnitOfWork(target) ? insert(target) : inTransaction(target, insert);
  }

  async find(jobId: number): Promise<JobRow | undefined> {
    return this.deps.db.selectFrom('job').selectAll().where('id', '=', jobId).executeTakeFirst();
  }

  /**
   * Cancels a job that has not started: one conditional update (queued → cancelled). Answers the cancelled job,
   * or undefined when it was no longer queued (it runs, or ended).
   */
  async cancel(jobId: number): Promise<JobRow | undefined> {
    return inTransaction(this.deps.db, async (uow) => {
      const now = iso();
      const row = await uow.tx.updateTable('job').set({ status: 'cancelled', finished_at: now, updated_at: now })
        .where('id', '=', jobId).where('status', '=', 'queued')
        .returningAll().executeTakeFirst();
      if (!row) return undefined;
      const handler = this.handlers.get(row.name);
      const payload = handler?.payload.safeParse(JSON.parse(row.payload_json));
      if (handler?.onCancel && payload?.success) await handler.onCancel(payload.data, uow);
      await this.announce(uow, row, 'JobCancelled');
      return row;
    });
  }

  /** Start-up check: a queued or running job whose handler this build lacks would never run; refuse to start. */
  async checkHandlers(): Promise<void> {
    const names = await this.deps.db.selectFrom('job').select('name').distinct()
      .where('status', 'in', ['queued', 'running']).execute();
    const missing = names.map((r) => r.name).filter((n) => !this.handlers.has(n)).sort();
    if (missing.length > 0) {
      throw new Error(`Queued jobs have no handler: ${missing.join(', ')} (register it, or cancel those jobs)`);
    }
  }

  /** Checks the handlers, then runs the worker until `stop`. */
  async start(options: Partial<WorkerOptions> = {}): Promise<void> {
    if (this.started) return;
    await this.checkHandlers();
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.started = true;
    this.stopping = false;
    this.loopDone = this.loop();
  }

  /** Stops claiming, and waits for the jobs in hand to finish (up to `graceMs`; their locks then run out elsewhere). */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    this.wake?.();
    await this.loopDone;
    const inHand = [...this.running.values()];
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
    if (await Promise.race([Promise.all(inHand.map((j) => j.promise)), timeout]) === 'timeout') {
      for (const j of inHand) j.abort.abort();
    }
    this.started = false;
  }

  /** Wakes an idle worker (a job was queued on this node). */
  poke(): void {
    if (this.wake) this.wake();
    else this.poked = true;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        if (Date.now() >= this.nextAbandonedCheck) {
          // Not every poll: a lock runs out in lockMs, so checking a few times within that is soon enough.
          this.nextAbandonedCheck = Date.now() + Math.max(this.options.pollMs, Math.min(this.options.lockMs / 2, 5000));
          await this.failAbandoned();
        }
        while (!this.stopping && this.running.size < this.options.concurrency) {
          const row = await this.claim();
          if (!row) break;
          this.execute(row);
        }
      } catch (err) {
        if (this.stopping) break;
        this.deps.log.warn({ err }, 'job worker could not claim work');
      }
      if (this.stopping) break;
      if (this.poked) {
        this.poked = false;
        if (this.running.size < this.options.concurrency) continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => { clearTimeout(timer); resolve(); };
      });
      this.wake = undefined;
    }
  }

  /**
   * Takes one due job: queued and due, or running with its lock run out (its node stopped) and tries left. One
   * statement; on PostgreSQL the candidate row is locked with SKIP LOCKED, so two nodes never take the same one.
   */
  async claim(lockMs = this.options.lockMs): Promise<JobRow | undefined> {
    const now = iso();
    const names = [...this.handlers.keys()];
    if (names.length === 0) return undefined;
    // Only jobs this node can run: during a rolling deploy an older node leaves a newer kind to the newer nodes.
    let pick = this.deps.db.selectFrom('job').select('id')
      .where('name', 'in', names)
      // Never one this node is running (on SQLite a long transaction can hold its renewal back past the lock).
      .where('id', 'not in', [0, ...this.running.keys()])
      .where((eb) => eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]),
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now), eb('attempts', '<', eb.ref('max_attempts'))]),
      ]))
      .orderBy('run_after').orderBy('id').limit(1);
    if (this.deps.dialect.engine === 'postgres') pick = pick.forUpdate().skipLocked();
    return this.deps.db.updateTable('job')
      .set({
        status: 'running', lock_owner: this.node, locked_until: iso(Date.now() + lockMs),
        attempts: sql`attempts + 1`, started_at: sql`coalesce(started_at, ${now})`, updated_at: now,
      })
      .where('id', '=', pick)
      .returningAll()
      .executeTakeFirst();
  }

  /** Jobs whose lock ran out on their last attempt: failed, since nobody will take them up again. */
  private async failAbandoned(): Promise<void> {
    const now = iso();
    const error = JSON.stringify({ status: 500, message: 'The job stopped (its worker ended) and has no tries left' });
    await inTransaction(this.deps.db, async (uow) => {
      const rows = await uow.tx.updateTable('job')
        .set({ status: 'failed', error, lock_owner: null, locked_until: null, finished_at: now, updated_at: now })
        .where('status', '=', 'running').where('locked_until', '<', now).where('attempts', '>=', (eb) => eb.ref('max_attempts'))
        .where('id', 'not in', [0, ...this.running.keys()])
        .returningAll().execute();
      for (const row of rows) await this.announce(uow, row, 'JobFailed');
    });
  }

  private execute(row: JobRow): void {
    const abort = new AbortController();
    const promise = this.runClaimed(row, abort).finally(() => this.running.delete(Number(row.id)));
    this.running.set(Number(row.id), { promise, abort });
    void promise.finally(() => this.poke());
  }

  /** Runs a claimed job on this node: renews its lock meanwhile, then records its outcome if it still holds it. */
  private async runClaimed(row: JobRow, abort: AbortController): Promise<void> {
    const id = Number(row.id);
    const { lockMs } = this.options;
    const started = performance.now();
    const finished = (outcome: 'succeeded' | 'retrying' | 'failed') => this.deps.metrics?.finished(row.name, outcome, (performance.now() - started) / 1000);
    const renew = setInterval(() => {
      this.deps.db.updateTable('job').set({ locked_until: iso(Date.now() + lockMs) })
        .where('id', '=', id).where('lock_owner', '=', this.node).where('status', '=', 'running')
        .executeTakeFirst()
        .then((r) => { if (Number(r.numUpdatedRows) === 0) abort.abort(); })
        .catch(() => undefined); // the next renewal tries again; the lock has two more thirds to run
    }, Math.max(10, Math.floor(lockMs / 3)));
    try {
      const handler = this.handlers.get(row.name);
      if (!handler) throw new Error(`No job handler named ${row.name}`);
      const payload = handler.payload.parse(JSON.parse(row.payload_json));
      let lastProgress = 0;
      const ctx: JobContext = {
        jobId: id, attempt: row.attempts, maxAttempts: row.max_attempts, ownerUserId: row.owner_user_id, warehouseId: row.warehouse_id, customerId: row.customer_id,
        signal: abort.signal,
        progress: async (done, total = null, message = null) => {
          const finalStep = total != null && done >= total;
          if (!finalStep && Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
          lastProgress = Date.now();
          await this.update(id, { progress_done: done, progress_total: total, progress_message: message?.slice(0, 255) ?? null }, 'JobProgress');
        },
      };
      const result = await handler.run(payload, ctx);
      await this.update(id, {
        status: 'succeeded', result_json: JSON.stringify(result ?? null), error: null, finished_at: iso(),
        lock_owner: null, locked_until: null,
      }, 'JobSucceeded');
      finished('succeeded');
    } catch (err) {
      const failure = failureOf(err);
      const retry = failure.status >= 500 && row.attempts < row.max_attempts && !abort.signal.aborted;
      finished(retry ? 'retrying' : 'failed');
      if (failure.status >= 500) this.deps.log.warn({ err, jobId: id, job: row.name, attempt: row.attempts }, retry ? 'job failed; it will be retried' : 'job failed');
      await this.update(id, retry
        ? { status: 'queued', error: JSON.stringify(failure), lock_owner: null, locked_until: null, run_after: iso(Date.now() + row.backoff_ms * 2 ** (row.attempts - 1)) }
        : { status: 'failed', error: JSON.stringify(failure), finished_at: iso(), lock_owner: null, locked_until: null },
      retry ? 'JobRetrying' : 'JobFailed').catch((e) => this.deps.log.error({ err: e, jobId: id }, 'could not record a job failure'));
    } finally {
      clearInterval(renew);
    }
  }

  /** Changes a running job this node holds, and tells its owner; nothing when another node has taken it over. */
  private async update(id: number, set: Partial<Omit<JobRow, 'id'>>, subEvent: JobSubEvent): Promise<void> {
    await inTransaction(this.deps.db, async (uow) => {
      const row = await uow.tx.updateTable('job').set({ ...set, updated_at: iso() })
        .where('id', '=', id).where('lock_owner', '=', this.node).where('status', '=', 'running')
        .returningAll().executeTakeFirst();
      if (row) await this.announce(uow, row, subEvent);
    });
  }

  private async announce(uow: UnitOfWork, row: JobRow, subEvent: JobSubEvent): Promise<void> {
    await this.deps.events.record(uow.tx, {
      target: 'ReceiveJobData',
      payload: { subEvent, payload: jobView(row) },
      warehouseId: row.warehouse_id,
      customerId: row.customer_id,
    }, uow.afterCommit);
  }
}
