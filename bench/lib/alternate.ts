// One load against two servers, in alternating rounds (a-b, b-a, …) so a burst of other work on a shared machine
// lands on both sides: the app against the bare server (run.ts), three nodes against one (cluster.ts).
import { combine, runLoad, type LoadCase, type LoadFigures } from './load.js';
import { settings } from './settings.js';
import type { Engine } from './sql-capture.js';

export interface Measured { server: LoadFigures; bare: LoadFigures; roundRatios: number[] }

/** How long requests still queued in a server may take to finish once the load stops (20 connections, busy machine). */
const DRAIN_MS: Record<Engine, number> = { sqlite: 1000, postgres: 300 };

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `app` is measured against `bare` (the `server` and `bare` figures); each round's ratio is app / bare. `around`,
 * if given, is called as each measured round starts and what it answers when the round ends (the cluster case
 * samples CPU per side that way).
 */
export async function measure(engine: Engine, name: string, app: { url: string }, bare: { url: string }, c: LoadCase, connections = settings.connections,
  around?: (side: 'server' | 'bare') => () => Promise<void>): Promise<Measured> {
  const { rounds } = settings;
  const roundSeconds = settings.seconds / rounds;
  log(`  ${name}: warm-up ${settings.warmupSeconds} s each, then ${rounds} × ${roundSeconds} s each, alternating (${connections} connections)`);
  // Let requests still in flight finish before the other server starts: on SQLite the two share one file, and
  // a write of one landing inside the other's transaction fails it (SQLITE_BUSY on upgrading a read snapshot).
  const drain = () => new Promise((r) => setTimeout(r, DRAIN_MS[engine]));
  await runLoad(bare.url, c, settings.warmupSeconds, connections);
  await drain();
  await runLoad(app.url, c, settings.warmupSeconds, connections);
  await drain();
  const figures = { server: [] as LoadFigures[], bare: [] as LoadFigures[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['bare', 'server'] as const) : (['server', 'bare'] as const);
    for (const side of order) {
      const done = around?.(side);
      figures[side].push(await runLoad((side === 'bare' ? bare : app).url, c, roundSeconds, connections));
      await done?.();
      await drain();
    }
  }
  const roundRatios = figures.server.map((f, i) => f.reqPerSec / (figures.bare[i].reqPerSec || Infinity));
  return { server: combine(figures.server), bare: combine(figures.bare), roundRatios };
}
