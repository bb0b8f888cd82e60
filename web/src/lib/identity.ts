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
