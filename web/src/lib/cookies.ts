/** Remember-me cookies (spec section 3 and 9): `remember` and `username`, kept 365 days. */
export const REMEMBER_COOKIE = 'remember';
export const USERNAME_COOKIE = 'username';
export const REMEMBER_DAYS = 365;

export function setCookie(name: string, value: string, days: number): void {
  const expires = new Date(Date.now() + days * 864e5).toUTCString();
  document.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

export function getCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const hit = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}

export function removeCookie(name: string): void {
  document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax`;
}

/** Remember on: both cookies for 365 days (refreshed on every login). Off: both removed. */
export function applyRememberMe(remember: boolean, username: string): void {
  if (typeof document === 'undefined') return;
  if (remember) {
    setCookie(REMEMBER_COOKIE, 'true', REMEMBER_DAYS);
    setCookie(USERNAME_COOKIE, username, REMEMBER_DAYS);
  } else {
    removeCookie(REMEMBER_COOKIE);
    removeCookie(USERNAME_COOKIE);
  }
}

export function rememberedUsername(): string | null {
  return getCookie(REMEMBER_COOKIE) === 'true' ? getCookie(USERNAME_COOKIE) : null;
}
