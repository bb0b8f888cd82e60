/** When a JWT access token expires (ms since epoch), read from its `exp` claim; null when it has none or is not a JWT. */
export function tokenExpiresAt(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Whether a token is expired or expires within `marginMs` of `now`. */
export function expiresWithin(token: string, marginMs: number, now = Date.now()): boolean {
  const at = tokenExpiresAt(token);
  return at !== null && at - now <= marginMs;
}
