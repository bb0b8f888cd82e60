import type { Db, Executor } from '../../db/schema.js';
import { throttled } from '../../platform/errors.js';
import { authRepository as repo } from './auth.repository.js';

/** How many attempts a key (an account, an address, a requested name) may make before it is blocked. */
export interface ThrottleRule { key: string; limit: number }

export interface ThrottleSettings {
  windowMinutes: number;
  firstBlockSeconds: number;
  maxBlockSeconds: number;
}

/**
 * Attempts (sign-ins, reset-link requests) counted per key in a window, each one *before* its work is done:
 * one atomic statement counts it, or refuses it when the key is blocked, and the attempt that reaches the limit
 * blocks the key in that same statement. So however many arrive at once, at most `limit` are let through; the
 * rest answer 429 with Retry-After. Blocks double with each further attempt (never a permanent lock).
 */
export class AttemptThrottle {
  constructor(private readonly db: Db, private readonly settings: ThrottleSettings) {}

  /** Counts one attempt against every rule, or throws 429 (counting none) when one of the keys is blocked. */
  async claim(rules: ThrottleRule[]): Promise<void> {
    const claimed: ThrottleRule[] = [];
    for (const rule of rules) {
      const now = Date.now();
      const counted = await repo.claimAttempt(this.db, rule.key, {
        now: new Date(now).toISOString(),
        windowStart: new Date(now - this.settings.windowMinutes * 60_000).toISOString(),
        limit: rule.limit,
        blockUntil: this.blockSchedule(now),
      });
      if (!counted) {
        for (const done of claimed) await this.refund(this.db, done);
        throw throttled(await this.secondsBlocked(rule.key));
      }
      claimed.push(rule);
    }
  }

  /** Takes back an attempt that succeeded, so that only failures count against the key. */
  async refund(db: Executor, rule: ThrottleRule): Promise<void> {
    await repo.refundAttempt(db, rule.key, rule.limit);
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

  /**
   * When a key becomes blocked for the n-th attempt over its limit (index 0 = the attempt that reaches it):
   * first block, doubled each time, up to the longest. Computed here so the claim statement needs no date
   * arithmetic in SQL, which the two engines spell differently.
   */
  private blockSchedule(now: number): string[] {
    const { firstBlockSeconds, maxBlockSeconds } = this.settings;
    const schedule: string[] = [];
    for (let seconds = firstBlockSeconds; ; seconds *= 2) {
      schedule.push(new Date(now + Math.min(seconds, maxBlockSeconds) * 1000).toISOString());
      if (seconds >= maxBlockSeconds) return schedule;
    }
  }

  private async secondsBlocked(key: string): Promise<number> {
    const [row] = await repo.getThrottle(this.db, [key]);
    const until = row?.blocked_until ? Date.parse(row.blocked_until) : 0;
    return Math.max(1, Math.ceil((until - Date.now()) / 1000));
  }
}
