import { useEffect, useState } from 'react';

/** The live preview waits this long after the last change of the rule form. */
export const PREVIEW_DELAY_MS = 400;

/** The value once it has stopped changing for `ms` (compared by content: pass strings). */
export function useDebouncedValue<T extends string>(value: T, ms = PREVIEW_DELAY_MS): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return current;
}
