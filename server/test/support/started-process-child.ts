import { startProcess } from '../child-processes.js';

/**
 * For child-processes.test.ts: starts a process that would run for ever, prints its pid, then ends as argv[2]
 * says — `exit` (process.exit), or `wait` for the test's signal.
 */
const sleeper = startProcess(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
process.stdout.write(`${sleeper.pid}\n`);
if (process.argv[2] === 'exit') process.exit(0);
setInterval(() => {}, 60_000);
