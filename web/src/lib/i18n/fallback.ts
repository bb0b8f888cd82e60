/**
 * Spec section 1: with multilingual mode off the locale is English and a text with no message falls back to
 * the last dotted segment of its id ('header.menu.Logout' → 'Logout').
 */
export const DEFAULT_LOCALE = 'en-US';

export function fallbackText(id: string): string {
  const segments = id.split('.');
  return segments[segments.length - 1] ?? id;
}

/** The locale in effect: the chosen one in multilingual mode, else English. */
export function effectiveLocale(multilingual: boolean, chosen: string | null | undefined): string {
  return multilingual && chosen ? chosen : DEFAULT_LOCALE;
}

/** The message table in effect: a missing id is answered by its fallback, never by the raw id. */
export function resolveMessage(messages: Record<string, string>, id: string): string {
  return Object.prototype.hasOwnProperty.call(messages, id) ? messages[id] : fallbackText(id);
}
