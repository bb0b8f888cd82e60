import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { AccessTokens, VERIFIED_TOKENS_MAX } from './tokens.js';

const secret = new Uint8Array(32).fill(7);

describe('AccessTokens.verify', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('answers a token it verified before with the same claims, and refuses it once expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
    const tokens = new AccessTokens(secret);
    const token = await tokens.sign({ userId: 5, sessionId: 's-1' }, 60);
    expect(await tokens.verify(token)).toEqual({ userId: 5, sessionId: 's-1' });
    expect(await tokens.verify(token)).toEqual({ userId: 5, sessionId: 's-1' });
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(await tokens.verify(token)).toEqual({ userId: 5, sessionId: 's-1' });
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token of another secret, a tampered one and one of another issuer, also after verifying a good one', async () => {
    const tokens = new AccessTokens(secret);
    const good = await tokens.sign({ userId: 5, sessionId: 's-1' });
    expect(await tokens.verify(good)).not.toBeNull();
    const other = await new AccessTokens(new Uint8Array(32).fill(8)).sign({ userId: 5, sessionId: 's-1' });
    expect(await tokens.verify(other)).toBeNull();
    const [h, p, sig] = good.split('.');
    // Its signature's first character changed (all 6 of its bits are the signature's: the last character's low bits
    // are padding, and "…AA" at the end left about one signature in a thousand as it was).
    expect(await tokens.verify(`${h}.${p}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`)).toBeNull();
    const forged = await new SignJWT({ sid: 's-1' }).setProtectedHeader({ alg: 'HS256' }).setSubject('5').setIssuer('someone-else')
      .setExpirationTime('1h').sign(secret);
    expect(await tokens.verify(forged)).toBeNull();
  });

  it('keeps at most VERIFIED_TOKENS_MAX tokens remembered, and a forgotten one still verifies', async () => {
    const tokens = new AccessTokens(secret);
    const first = await tokens.sign({ userId: 1, sessionId: 's-0' });
    await tokens.verify(first);
    const remembered = (tokens as unknown as { verified: Map<string, unknown> }).verified;
    for (let i = 1; i <= VERIFIED_TOKENS_MAX; i++) remembered.set(`t${i}`, { claims: { userId: i, sessionId: `s-${i}` }, exp: Number.MAX_SAFE_INTEGER });
    expect(remembered.size).toBe(VERIFIED_TOKENS_MAX + 1);
    const next = await tokens.sign({ userId: 2, sessionId: 's-new' });
    expect(await tokens.verify(next)).toEqual({ userId: 2, sessionId: 's-new' });
    expect(remembered.size).toBe(VERIFIED_TOKENS_MAX + 1);
    expect(remembered.has(first)).toBe(false);
    expect(await tokens.verify(first)).toEqual({ userId: 1, sessionId: 's-0' });
  });
});
