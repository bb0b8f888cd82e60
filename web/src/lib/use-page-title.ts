import { useEffect } from 'react';
import { formatMetaDescription, formatPageTitle } from './page-title';

/**
 * Sets the document title (and optionally the meta description) for the calling screen. Undefined leaves the
 * title alone, so a wrapper without a title does not overwrite the screen's own.
 */
export function usePageTitle(title: string | undefined, description?: string): void {
  useEffect(() => {
    if (title === undefined) return;
    document.title = formatPageTitle(title);
    if (description === undefined) return;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = formatMetaDescription(description);
  }, [title, description]);
}
