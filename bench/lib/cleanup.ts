// Whatever happens — a failed case, Ctrl-C, the overall time limit — child servers are stopped, the PG
// schema dropped and temp dirs removed. Resources register an undo step as they are made.
type Undo = () => Promise<void> | void;

const steps: { label: string; undo: Undo }[] = [];
let running: Promise<void> | undefined;

/** Registers an undo step; returns a function that runs it now (and forgets it). */
export function onCleanup(label: string, undo: Undo): () => Promise<void> {
  if (running) {
    // Made while we are already cleaning up (a step in flight when Ctrl-C came): undo it at once.
    void Promise.resolve().then(undo).catch(() => undefined);
    return async () => undefined;
  }
  const step = { label, undo };
  steps.push(step);
  return async () => {
    const i = steps.indexOf(step);
    if (i < 0) return;
    steps.splice(i, 1);
    await undo();
  };
}

/** True once cleanup has begun: start nothing new. */
export const stopping = (): boolean => running !== undefined;

/** Runs every remaining step, newest first; a failing step is reported and the rest still run. */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (steps.length) {
      const step = steps.pop()!;
      try {
        await step.undo();
      } catch (err) {
        process.stderr.write(`cleanup: ${step.label} failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
  })();
  return running;
}

/** Cleans up and exits on Ctrl-C / SIGTERM and when the whole run exceeds its time limit. */
export function guardRun(timeoutSeconds: number): void {
  let bailing = false;
  const bail = (why: string, code: number) => {
    if (bailing) return; // Ctrl-C reaches us twice (the terminal, then tsx relaying it): finish cleaning up
    bailing = true;
    process.stderr.write(`\nbench: ${why}; cleaning up\n`);
    void cleanupAll().finally(() => process.exit(code));
  };
  // `on`, not `once`: a second signal must not fall through to the default handler mid-cleanup.
  process.on('SIGINT', () => bail('interrupted', 130));
  process.on('SIGTERM', () => bail('terminated', 143));
  setTimeout(() => bail(`time limit of ${timeoutSeconds} s reached`, 1), timeoutSeconds * 1000).unref();
}
