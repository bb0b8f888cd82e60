import { useEffect, useState } from 'react';

/** Spec section 9: the default loading delay; previews wait this long after the last keystroke. */
export const PREVIEW_DELAY_MS = 300;

/** The value once it has stopped changing for `ms` (compare by content: pass strings or numbers). */
export function useDebounced<T extends string | number | null>(value: T, ms = PREVIEW_DELAY_MS): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return current;
}
