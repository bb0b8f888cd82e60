import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/use-page-title';
import { useT } from '../../lib/i18n/use-t';

/** Gives every routed screen its document title from the route table; screens may set a more specific one. */
export function ScreenTitle({ titleId, children }: { titleId?: string; children: ReactNode }) {
  const t = useT();
  usePageTitle(titleId ? t(titleId) : undefined);
  return <>{children}</>;
}
