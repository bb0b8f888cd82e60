import { useCallback, useRef, useState } from 'react';
import type { ScanBoxHandle } from './components/ScanBox';
import { errorCue, successCue } from './feedback';
import { ScanQueue } from './scan-queue';

/**
 * What every scanning screen (picking, pack station) does around its scans: the scan box and its focus, the
 * queue that runs one scan at a time, and the answer to each — a refusal (red message, buzz and vibration, what
 * waits in the queue dropped) or an acceptance (the green notice, a beep). The screen sets `handle` to what a scan
 * does and hands `push` to its ScanBox.
 */
export function useScanStation() {
  const scanBox = useRef<ScanBoxHandle>(null);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const focus = useCallback(() => scanBox.current?.focus(), []);

  // The screen's scan handler of its latest render: a scan queued behind a call runs the screen as it now is.
  const handle = useRef<(code: string) => Promise<void>>(async () => undefined);
  const queue = useRef<ScanQueue | null>(null);
  queue.current ??= new ScanQueue((code) => handle.current(code));

  const refuse = useCallback((message: string) => {
    queue.current?.clear();
    setError(message);
    setNotice(undefined);
    errorCue();
    focus();
  }, [focus]);
  const accept = useCallback((message?: string) => {
    setError(undefined);
    setNotice(message);
    successCue();
    focus();
  }, [focus]);
  /** Clears what is said (another job or order). */
  const reset = useCallback(() => {
    setError(undefined);
    setNotice(undefined);
  }, []);
  const push = useCallback((code: string) => queue.current!.push(code), []);

  return { scanBox, focus, error, notice, refuse, accept, reset, push, handle };
}
