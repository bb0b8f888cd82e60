/** Spec section 2: the avatar shows the first letter of the username, or 'JOHN' when the username is empty. */
export const AVATAR_DEFAULT = 'JOHN';

export function avatarText(username: string | null | undefined): string {
  const name = username?.trim();
  return name ? name.charAt(0).toUpperCase() : AVATAR_DEFAULT;
}

/** The header title: the selected service's name, or else the title of the menu item for the current path. */
export function headerTitle(service: string | null, menuTitle: string | undefined): string {
  return service || menuTitle || '';
}

/**
 * The signed-in user's id from the access token's subject (the server signs `sub` = user id), for a screen that
 * must tell "mine" from "someone else's" after a reload, when the login answer is no longer in memory. Null for
 * no token or one that does not read. The token is not checked here: the server checks it on every call.
 */
export function userIdOfToken(token: string | null | undefined): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='))) as { sub?: unknown };
    const id = Number(json.sub);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
