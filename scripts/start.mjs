// `npm start`: build what is missing or out of date, then serve the portal with demo data on an empty database.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** The newest modification time of a file, or of anything inside a folder. */
function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows only as a newer folder
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => existsSync(s) && newestMtime(s) > built);
}

function run(args) {
  const r = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const at = (p) => join(root, p);
if (isStale(at('web/dist/index.html'), [at('web/src'), at('web/public'), at('web/index.html'), at('web/vite.config.ts'), at('contracts/src')])) {
  console.log('Building the web app…');
  run(['run', 'build', '-w', 'web']);
}
if (isStale(at('server/dist/main.js'), [at('server/src'), at('server/build.mjs'), at('contracts/src')])) {
  console.log('Building the server…');
  run(['run', 'build', '-w', 'server']);
}

const env = { ...process.env, DEMO_DATA: process.env.DEMO_DATA ?? '1' };
const server = spawn(process.execPath, ['--enable-source-maps', at('server/dist/main.js')], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
