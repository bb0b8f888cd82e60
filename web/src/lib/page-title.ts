/** Spec section 1 and 9: page titles '{title} | BOLX-WMS' cut to 60 characters, descriptions to 155. */
export const APP_NAME = 'BOLX-WMS';
export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 155;

export function formatPageTitle(title?: string | null): string {
  const full = title && title.trim() ? `${title.trim()} | ${APP_NAME}` : APP_NAME;
  return full.slice(0, TITLE_MAX);
}

export function formatMetaDescription(description: string): string {
  return description.trim().slice(0, DESCRIPTION_MAX);
}
