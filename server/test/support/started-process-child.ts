import { readFileSync } from 'node:fs';
import { startProcess } from '../child-processes.js';

/**
 * For child-processes.test.ts: starts a process that would run for ever, prints its pid, then ends as argv[2]
 * says — `exit` (process.exit), or `wait` for the test's signal.
 */
const sleeper = startProcess(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
// setpriv sets the parent-death signal, then execs the command: a parent killed before that (a loaded machine) leaves
// the process without it. The pid is printed once the command runs in its place, when the signal is certainly set.
const deadline = Date.now() + 10_000;
const isSetpriv = () => {
  try {
    return readFileSync(`/proc/${sleeper.pid}/cmdline`, 'utf8').split('\0')[0].endsWith('setpriv');
  } catch {
    return false; // no /proc (not Linux): no setpriv either
  }
};
while (isSetpriv() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
process.stdout.write(`${sleeper.pid}\n`);
if (process.argv[2] === 'exit') process.exit(0);
setInterval(() => {}, 60_000);
