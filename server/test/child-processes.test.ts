import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isRunning } from './child-processes.js';

/**
 * The suites' servers end with the process that started them (child-processes.ts): a worker that exits, is
 * interrupted or terminated, or (with setpriv) is killed with kill -9, leaves no server behind.
 */
const serverDir = new URL('..', import.meta.url).pathname;
const hasSetpriv = process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v setpriv']).status === 0;

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return check();
}

/** Starts the fixture, which starts a process of its own; ends the fixture with `signal` (or lets it exit); answers whether that process still runs. */
async function survivorAfter(signal: NodeJS.Signals | 'exit'): Promise<boolean> {
  const parent = spawn(process.execPath, ['--import', 'tsx', 'test/support/started-process-child.ts', signal === 'exit' ? 'exit' : 'wait'], { cwd: serverDir, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => parent.once('exit', r));
  let pid = 0;
  try {
    pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      parent.stdout!.on('data', (d) => { out += d; if (out.includes('\n')) resolve(Number(out.trim())); });
      parent.once('exit', (code) => reject(new Error(`the fixture exited (${code}) before starting its process`)));
    });
    if (signal !== 'exit') expect(isRunning(pid)).toBe(true);
    if (signal !== 'exit') parent.kill(signal);
    await exited;
    // A kill -9 is asynchronous: give it a moment before saying it survived.
    return !(await waitFor(() => !isRunning(pid), 5000));
  } finally {
    parent.kill('SIGKILL');
    if (pid && isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
}

describe('processes a suite starts', () => {
  it('end when the process that started them exits', async () => {
    expect(await survivorAfter('exit')).toBe(false);
  });
  it('end when it is interrupted (SIGINT)', async () => {
    expect(await survivorAfter('SIGINT')).toBe(false);
  });
  it('end when it is terminated (SIGTERM)', async () => {
    expect(await survivorAfter('SIGTERM')).toBe(false);
  });
  it.skipIf(!hasSetpriv)('end when it is killed with kill -9 (parent-death signal through setpriv)', async () => {
    expect(await survivorAfter('SIGKILL')).toBe(false);
  });
});
