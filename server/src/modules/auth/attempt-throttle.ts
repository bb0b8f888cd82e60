import type { Db, Executor } from '../../db/schema.js';
import { throttled } from '../../platform/errors.js';
import { authRepository as repo } from './auth.repository.js';

/** How many attempts a key (an account, an address, a requested name) may make before it is blocked. */
export interface ThrottleRule { key: string; limit: number }

/** An attempt counted against a rule; `count` is its place in the key's window (1 = first). */
export interface ClaimedAttempt { rule: ThrottleRule; count: number }

export interface ThrottleSettings {
  windowMinutes: number;
  firstBlockSeconds: number;
  maxBlockSeconds: number;
  /** How long an attempt waits for attempts still being checked to free the key, before it answers 429. */
  waitMs: number;
}

/**
 * Attempts (sign-ins, reset-link requests) counted per key in a window, each one *before* its work is done, in
 * one atomic statement (`claim`). However many arrive at once, no more than `limit` are let through: attempts
 * still being checked hold their place, and the ones beyond wait a moment for them (a right password frees the
 * account at once) and answer 429 if the key ends up blocked or stays full. An attempt that fails and reaches
 * the limit blocks the key; each further one after a block has lapsed doubles it (never a permanent lock).
 */
export class AttemptThrottle {
  constructor(private readonly db: Db, private readonly settings: ThrottleSettings) {}

  /** Counts one attempt against every rule, or throws 429 (keeping none of them) when one is blocked or full. */
  async claim(rules: ThrottleRule[]): Promise<ClaimedAttempt[]> {
    const claimed: ClaimedAttempt[] = [];
    for (const rule of rules) {
      const outcome = await this.claimOne(rule);
      if ('retryAfterSeconds' in outcome) {
        for (const done of claimed) await this.refund(this.db, done);
        throw throttled(outcome.retryAfterSeconds);
      }
      claimed.push({ rule, count: outcome.count });
    }
    return claimed;
  }

  /** How long a key is still blocked, in whole seconds; 0 when it is not (a read: nothing is counted). */
  async blockedSeconds(key: string): Promise<number> {
    const [row] = await repo.getThrottle(this.db, [key]);
    const ms = row?.blocked_until ? Date.parse(row.blocked_until) - Date.now() : 0;
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  /** Keeps attempts counted (a wrong password, a reset request); a key they brought to its limit is blocked. */
  async spend(claimed: ClaimedAttempt[]): Promise<void> {
    const schedule = blockSchedule(Date.now(), this.settings);
    for (const { rule, count } of claimed) {
      if (count >= rule.limit) await repo.block(this.db, rule.key, schedule[Math.min(count - rule.limit, schedule.length - 1)]);
    }
  }

  /** Takes back an attempt that succeeded, so that only failures count against its key. */
  async refund(db: Executor, claimed: ClaimedAttempt): Promise<void> {
    await repo.refundAttempt(db, claimed.rule.key, claimed.rule.limit);
  }

  /** Forgets a key's attempts and block (a right password clears its account). */
  async clear(db: Executor, key: string): Promise<void> {
    await repo.clearThrottle(db, key);
  }

  /**
   * Counts one use against an allowance (mails per mailbox) without blocking: true while within the limit.
   * Atomic, so concurrent uses cannot both take the last one.
   */
  async allow(rule: ThrottleRule): Promise<boolean> {
    const windowStart = new Date(Date.now() - this.settings.windowMinutes * 60_000).toISOString();
    return (await repo.countUse(this.db, rule.key, windowStart)) <= rule.limit;
  }

  private async claimOne(rule: ThrottleRule): Promise<{ count: number } | { retryAfterSeconds: number }> {
    const deadline = Date.now() + this.settings.waitMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, 400)) {
      const now = Date.now();
      const count = await repo.claimAttempt(this.db, rule.key, {
        now: new Date(now).toISOString(),
        windowStart: new Date(now - this.settings.windowMinutes * 60_000).toISOString(),
        limit: rule.limit,
      });
      if (count !== undefined) return { count };
      const [row] = await repo.getThrottle(this.db, [rule.key]);
      const blockedMs = row?.blocked_until ? Date.parse(row.blocked_until) - Date.now() : 0;
      if (blockedMs > 0) return { retryAfterSeconds: Math.ceil(blockedMs / 1000) };
      // Full with attempts still being checked: they end in a moment, and one may free the key.
      if (Date.now() + pause > deadline) return { retryAfterSeconds: 1 };
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/**
 * Until when a key is blocked by the failed attempt that reaches its limit (index 0) and by each one after
 * it: the first block, doubled each time, up to the longest (the last entry repeats).
 */
export function blockSchedule(now: number, settings: Pick<ThrottleSettings, 'firstBlockSeconds' | 'maxBlockSeconds'>): string[] {
  const schedule: string[] = [];
  for (let seconds = settings.firstBlockSeconds; ; seconds *= 2) {
    schedule.push(new Date(now + Math.min(seconds, settings.maxBlockSeconds) * 1000).toISOString());
    if (seconds >= settings.maxBlockSeconds) return schedule;
  }
}
