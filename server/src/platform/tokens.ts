import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'bolx-wms';
/** Verified tokens remembered at most (a few per signed-in session within its token's life). */
export const VERIFIED_TOKENS_MAX = 10_000;

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

export class AccessTokens {
  /**
   * The secret as a CryptoKey, imported once: handed raw bytes, jose imports a key on every sign and verify, which
   * costs several times the HMAC itself — on every authenticated request.
   */
  private key: Promise<webcrypto.CryptoKey> | undefined;
  /**
   * Tokens whose signature was checked, with their claims and expiry (oldest first). A token's signature and claims
   * never change, so every request of a session need not check them again (WebCrypto's HMAC is a thread-pool round
   * trip); its expiry is checked every time, and the session itself (revoked, user disabled) is read on every request.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();
  constructor(private readonly secret: Uint8Array) {}

  private cryptoKey(): Promise<webcrypto.CryptoKey> {
    this.key ??= webcrypto.subtle.importKey('raw', this.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.key;
  }

  async sign(claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(await this.cryptoKey());
  }

  /** The claims of a valid, unexpired token, or null. */
  async verify(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    // jose's rule: a token is expired from its `exp` second on.
    if (known) {
      if (Math.floor(Date.now() / 1000) < known.exp) return known.claims;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, await this.cryptoKey(), { issuer: ISSUER, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.sid !== 'string') return null;
      const claims = { userId, sessionId: payload.sid };
      if (typeof payload.exp === 'number') this.remember(token, claims, payload.exp);
      return claims;
    } catch {
      return null;
    }
  }

  /** Tokens share one lifetime, so the oldest remembered is the first to expire: it makes room. */
  private remember(token: string, claims: AccessClaims, exp: number): void {
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, exp });
  }
}
