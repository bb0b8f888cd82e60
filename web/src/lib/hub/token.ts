/** A JWT's claims, unverified (the server verifies; the tab only reads its own token); null when it is not a JWT. */
function claimsOf(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const claims: unknown = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** When a JWT access token expires (ms since epoch), read from its `exp` claim; null when it has none or is not a JWT. */
export function tokenExpiresAt(token: string): number | null {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/** The signed-in user's id: the token's subject (`sub`); null when it has none. */
export function tokenUserId(token: string | null | undefined): number | null {
  const id = Number(token ? claimsOf(token)?.sub : undefined);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** Whether a token is expired or expires within `marginMs` of `now`. */
export function expiresWithin(token: string, marginMs: number, now = Date.now()): boolean {
  const at = tokenExpiresAt(token);
  return at !== null && at - now <= marginMs;
}
