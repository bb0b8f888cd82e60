import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same port and database (a restart as operators do it). */
  restart(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts the built portal on a fresh demo database, as `npm start` would, and waits until it is ready. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const main = join(root, 'server/dist/main.js');
  if (!existsSync(main) || !existsSync(join(root, 'web/dist/index.html'))) {
    throw new Error('Build first: npm run build (the browser suite runs against the built app)');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bolx-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, [main], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_DATA: '1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const deadline = Date.now() + 90_000; // a cold start on a loaded 2-core machine took over 30 s
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${baseURL}/ready`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error('server did not become ready in 30 s');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return child;
  };
  const halt = async (child: ChildProcess) => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  };
  let child = await launch();
  return {
    baseURL,
    dataDir,
    async stop() {
      await halt(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await halt(child);
      child = await launch();
    },
  };
}
