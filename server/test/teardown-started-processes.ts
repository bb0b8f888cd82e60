import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { isRunning, killStarted, startedRunning } from './child-processes.js';

/**
 * A setup file of the reliability and cluster suites: its afterAll is the file's last (hooks run in stack order),
 * after the suite's own teardown. Every process the suite started is killed, and the file fails if one was still
 * running: a teardown that let a server outlive it (say, a test that timed out started it again).
 */

/** `pid (command line)`, read before the kill, to say which server it was. */
function withCommand(pid: number): string {
  try {
    return `${pid} (${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200)})`;
  } catch {
    return String(pid);
  }
}

afterAll(async () => {
  const left = startedRunning();
  const named = left.map(withCommand);
  killStarted();
  const deadline = Date.now() + 5000;
  while (left.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const survivors = left.filter(isRunning);
  if (survivors.length) throw new Error(`processes ${survivors.join(', ')} survived kill -9`);
  if (left.length) throw new Error(`the suite's teardown left running: ${named.join('; ')} (killed now)`);
});
